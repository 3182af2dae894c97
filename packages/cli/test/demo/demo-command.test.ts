import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runCli } from '../../src/cli.js';
import type { DemoFigures } from '../../src/demo/figures.js';
import type { Report } from '../../src/types.js';
import { captureIo } from '../helpers/capture-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const BIN = fileURLToPath(new URL('../../src/bin.js', import.meta.url));
const run = promisify(execFile);
const sum = (values: number[]): number => values.reduce((total, v) => total + v, 0);

describe('argcheck demo', () => {
  const dir = useTempDir();

  it('documents every flag in --help', async () => {
    const io = captureIo();
    expect(await runCli(['demo', '--help'], io)).to.equal(0);
    for (const flag of ['--mode', '--duration', '--seed', '--rate', '--otlp', '--logs', '--json']) {
      expect(io.out()).to.include(flag);
    }
  });

  it('exits 2 on a bad flag value, before starting anything', async () => {
    for (const argv of [
      ['--mode', 'enforce'],
      ['--duration', '0'],
      ['--otlp', 'localhost:4318'],
      ['extra'],
    ]) {
      const io = captureIo();
      expect(await runCli(['demo', ...argv], io), argv.join(' ')).to.equal(2);
      expect(io.out()).to.equal('');
    }
  });

  it('runs end to end: figures that add up, the story visible, logs readable by report', async function () {
    this.timeout(60_000);
    const logs = dir.path('demo-logs.jsonl');
    const demo = await run(process.execPath, [BIN, 'demo', '--duration', '3', '--json', '--seed', '1', '--logs', logs], {
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    }); // prettier-ignore
    const figures = JSON.parse(demo.stdout) as DemoFigures;
    const tools = Object.values(figures.tools);

    expect(figures.calls).to.deep.equal({ planned: 750, made: 750 });
    expect(sum(tools.map((t) => t.planned))).to.equal(750);
    for (const t of tools) {
      expect(t.succeeded + t.serverErrors).to.equal(t.planned);
      expect(t.received).to.equal(t.succeeded);
      expect(t.attempts).to.equal(t.planned);
      // What did not reach a server was refused by its input schema: the not_string slips.
      expect(t.refusedByServer).to.equal(t.serverErrors);
      expect(t.refusedByServer).to.equal(t.notString);
      expect(t.repairsStarted).to.equal(0);
    }
    const byName = new Map(figures.arguments.map((a) => [`${a.tool}.${a.argument}`, a]));
    const checked = (name: string): number => (byName.get(name)?.checks ?? 0) + (byName.get(name)?.unavailable ?? 0);
    expect(checked('refund_order.reason_code')).to.equal(figures.tools['refund_order']?.attempts);
    expect(checked('create_ticket.component_id')).to.equal(figures.tools['create_ticket']?.attempts);
    expect(checked('create_ticket.assignee')).to.equal(figures.tools['create_ticket']?.attempts);
    const items = checked('transfer_stock.items[].warehouse_code');
    const transfers = figures.tools['transfer_stock']?.attempts ?? 0;
    expect(items).to.be.within(transfers, 3 * transfers);

    const refund = byName.get('refund_order.reason_code');
    if (!refund) throw new Error('no refund figures');
    expect(refund.outOfSetRate).to.be.within(0.02, 0.12);
    expect(refund.normalisedRate).to.be.below(refund.outOfSetRate);
    for (const a of figures.arguments) {
      expect(sum(a.shapes.map((s) => s.count))).to.equal(a.outOfSet);
      if (a.outOfSet > 0) expect(sum(a.shapes.map((s) => s.shareOfMismatches))).to.be.closeTo(1, 1e-9);
      expect(sum(a.shapes.map((s) => s.shareOfCalls))).to.be.closeTo(a.outOfSetRate, 1e-9);
      expect(a.formattingTax).to.be.closeTo(a.outOfSetRate - a.normalisedRate, 1e-9);
    }

    const phases = figures.phases.map((p) => p.name).filter((n) => n !== 'seventh_code_refreshed');
    expect(phases).to.deep.equal(['baseline', 'description_rewrite', 'rewrite_rolled_out', 'provider_canary', 'seventh_code', 'identity_outage', 'identity_recovered']);
    // Models and definitions come from what the instrumentation saw: the route's
    // model (inst.withAttribution) and each server's listing (tool_definition).
    const phase = (name: string) => figures.phases.find((p) => p.name === name);
    const models = (name: string) => phase(name)?.refund.byModel.map((m) => m.value);
    const listings = (name: string) => phase(name)?.refund.byDefinition.map((d) => figures.definitions.find((f) => f.toolDefinition === d.value)?.listing);
    expect(models('baseline')).to.deep.equal(['acme-chat-4']);
    expect(listings('baseline')).to.deep.equal(['original']);
    expect(listings('description_rewrite')?.sort()).to.deep.equal(['original', 'rewritten']);
    expect(listings('rewrite_rolled_out')).to.deep.equal(['rewritten']);
    expect(models('provider_canary')).to.deep.equal(['acme-chat-4', 'nova-large-1']);
    for (const p of figures.phases) {
      expect(sum(p.refund.byModel.map((m) => m.checks))).to.equal(p.refund.checks);
      expect(sum(p.refund.byDefinition.map((d) => d.checks))).to.equal(p.refund.checks);
    }
    expect(figures.sideBySide.rollout?.phase).to.equal('description_rewrite');
    expect(figures.sideBySide.rollout?.before).to.equal(phase('baseline')?.refund.outOfSetRate);
    expect(figures.sideBySide.canary?.phase).to.equal('provider_canary');
    expect(figures.sideBySide.canary?.rows.map((r) => r.value)).to.deep.equal(['acme-chat-4', 'nova-large-1']);
    expect(figures.repairExamples).to.deep.equal([]);
    expect(sum(figures.phases.map((p) => p.calls))).to.equal(750);
    const [baseline, rewrite] = figures.phases;
    expect(baseline?.refund.outOfSetRate).to.be.above(rewrite?.refund.outOfSetRate ?? 1);
    for (const p of figures.phases) expect(p.createTicket.succeeded).to.equal(p.createTicket.planned);
    // The identity owner was down longer than TTL + stale allowance: checks fell open.
    expect(sum(figures.phases.map((p) => p.unavailable))).to.be.above(0);

    expect(figures.series.every((s) => s.name.startsWith('tool_argument_') && !('value' in s.attributes))).to.equal(true);
    expect(figures.series.some((s) => s.atZero)).to.equal(true);
    expect(figures.series.some((s) => !s.atZero)).to.equal(true);
    expect(figures.logRecords).to.be.above(0);
    const report = await run(process.execPath, [BIN, 'report', '--format', 'json', logs]);
    const parsed = JSON.parse(report.stdout) as Report;
    expect(sum(parsed.arguments.map((a) => a.records + a.unchecked))).to.equal(figures.logRecords);
  }); // prettier-ignore

  it('reject mode: prints real repair messages, and accounts for every call that did not reach a server', async function () {
    this.timeout(60_000);
    const demo = await run(process.execPath, [BIN, 'demo', '--duration', '3', '--mode', 'reject', '--seed', '7', '--json'], {
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    }); // prettier-ignore
    const figures = JSON.parse(demo.stdout) as DemoFigures;
    for (const [tool, t] of Object.entries(figures.tools)) {
      expect(t.attempts, tool).to.equal((t.received ?? 0) + t.repairsStarted + (t.refusedByServer ?? 0));
      expect(t.refusedByServer, tool).to.equal(0);
      expect(t.attempts, tool).to.equal(t.planned + t.rejected);
    }
    expect(figures.repairExamples.map((e) => e.tool).sort()).to.deep.equal(['create_ticket', 'refund_order', 'transfer_stock']);
    for (const e of figures.repairExamples) {
      // The message is the instrumentation's: it names the tool and what the model sent.
      expect(e.message).to.match(new RegExp(`^${e.tool} was not called: `));
      const refused = JSON.stringify(e.sent).match(/"(reason_code|component_id|assignee|warehouse_code)":("[^"]*"|\d+|null)/g) ?? [];
      expect(refused.some((pair) => e.message.includes(`got ${pair.slice(pair.indexOf(':') + 1)}`))).to.equal(true);
      expect(e.retried).to.not.deep.equal(e.sent);
    }
  }); // prettier-ignore

  it('prints short progress lines on plain output, and explains the calls that did not reach a server', async function () {
    this.timeout(60_000);
    // Long enough for the agent's first not_string slip (5 % of reason-code slips).
    const demo = await run(process.execPath, [BIN, 'demo', '--duration', '6', '--seed', '1'], {
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    });
    const progress = demo.stdout.split('\n').filter((l) => /^ *\d+ % /.test(l));
    expect(progress).to.have.length(10);
    for (const line of progress) expect(line.length, line).to.be.below(100);
    expect(demo.stdout).to.match(/refund_order: [\d,]+ sent, [\d,]+ reached the servers: (\d+) refused by the server's own input schema before its handler ran \(argcheck counted \1 not_string values/);
    expect(demo.stdout).to.include('Side by side (refund_order.reason_code out of set');
    expect(demo.stdout).to.include('read the canary on its own line, not the aggregate.');
  }); // prettier-ignore

  it('ships metrics and log records to an OTLP/HTTP endpoint given by the environment', async function () {
    this.timeout(60_000);
    const bodies: Record<string, string[]> = {};
    const sink = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        (bodies[req.url ?? ''] ??= []).push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
    try {
      const demo = await run(process.execPath, [BIN, 'demo', '--duration', '1', '--json'], {
        env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
      });
      const figures = JSON.parse(demo.stdout) as DemoFigures;
      expect(figures.otlp?.endpoint).to.equal(endpoint);
      expect(figures.otlp?.metrics.failed).to.equal(0);
      expect(figures.otlp?.metrics.succeeded).to.equal(bodies['/v1/metrics']?.length);
      expect(figures.otlp?.logs.succeeded).to.equal(bodies['/v1/logs']?.length);
      expect(bodies['/v1/metrics']?.join('')).to.include('"tool_argument_value_check"');
      expect(bodies['/v1/logs']?.join('')).to.include('"tool_argument_value_check"');
    } finally {
      sink.close();
    }
  });
});
