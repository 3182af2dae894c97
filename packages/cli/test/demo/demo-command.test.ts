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
    expect(phases).to.deep.equal(['baseline', 'description_rewrite', 'provider_migration', 'seventh_code', 'identity_outage', 'identity_recovered']);
    expect(sum(figures.phases.map((p) => p.calls))).to.equal(750);
    const [baseline, rewrite] = figures.phases;
    expect(baseline?.refund.outOfSetRate).to.be.above(rewrite?.refund.outOfSetRate ?? 1);
    for (const p of figures.phases) expect(p.createTicket.succeeded).to.equal(p.createTicket.planned);
    // The identity owner was down longer than TTL + stale allowance: checks fell open.
    expect(sum(figures.phases.map((p) => p.unavailable))).to.be.above(0);

    expect(figures.series.every((s) => s.name.startsWith('tool_argument_') && !('value' in s.attributes))).to.equal(true);
    expect(figures.logRecords).to.be.above(0);
    const report = await run(process.execPath, [BIN, 'report', '--format', 'json', logs]);
    const parsed = JSON.parse(report.stdout) as Report;
    expect(sum(parsed.arguments.map((a) => a.records + a.unchecked))).to.equal(figures.logRecords);
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
