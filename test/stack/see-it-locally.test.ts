import { expect } from 'chai';
import { join } from 'node:path';
import { ManagedProcess, killAllOnExit } from '../../deploy/stack/src/processes.js';
import { PrometheusClient } from '../../deploy/stack/src/prometheus-client.js';
import { replaceExactly } from '../../deploy/stack/src/config-copies.js';
import { exampleBlock } from '../helpers/markdown.js';
import { repoRoot } from '../helpers/repo.js';
import { waitFor } from '../helpers/wait.js';
import { alive, commandOf, startedPids } from './support/stack-output.js';

// docs/pipeline.md, "See it locally", run as a reader runs it: the stack's
// command in one process group (a terminal), the demo's command in another,
// both taken from the doc, so the doc and this test cannot drift. Everything
// is real: the collector, Prometheus, Alertmanager, the alert receiver, the
// demo's MCP server and OpenTelemetry SDK. The only change: the stack picks
// free ports (ARGCHECK_STACK_FREE_PORTS=1, so a machine with something on
// 9090 can run it) and the demo gets the OTLP address the stack printed in
// place of the doc's http://127.0.0.1:4318.

const DOC = join(repoRoot, 'docs/pipeline.md');
const DOC_OTLP = 'http://127.0.0.1:4318';

/** `STATUS NAME SUBJECT` of each alert line the receiver printed. */
function receiverAlerts(lines: readonly string[]): Set<string> {
  const seen = new Set<string>();
  for (const line of lines) {
    const m = /^alert-receiver │ \S+ (FIRING|RESOLVED)\s+(\w+)\s+(\S+)/.exec(line);
    if (m) seen.add(`${m[1]} ${m[2]} ${m[3]}`);
  }
  return seen;
}

const EXPECTED = [
  'FIRING ToolArgumentInventionRate refund_order.reason_code',
  'RESOLVED ToolArgumentInventionRate refund_order.reason_code',
  'FIRING ToolArgumentCheckUnavailable identity.active_handles',
  'RESOLVED ToolArgumentCheckUnavailable identity.active_handles',
];

describe('docs/pipeline.md "See it locally": the stack and the demo, as the doc shows them', function () {
  this.timeout(600_000);
  killAllOnExit();

  const stackCommand = commandOf(exampleBlock(DOC, 'stack'));
  const demoCommand = commandOf(exampleBlock(DOC, 'demo'));
  const lines: string[] = [];
  let stack: ManagedProcess | undefined;
  let demo: ManagedProcess | undefined;
  const timings: Record<string, number> = {};
  const t0 = Date.now();
  const mark = (what: string): void => {
    timings[what] = Math.round((Date.now() - t0) / 1000);
  };
  const detail = (): string => [stack?.describe(60), demo?.describe(20)].filter(Boolean).join('\n');

  after(async () => {
    await demo?.stop();
    await stack?.stop();
    console.log(`      measured (s since the stack command): ${JSON.stringify(timings)}`);
  });

  it('shows both alerts firing and resolving at the receiver, and stops every program on Ctrl-C', async () => {
    expect(stackCommand).to.equal('npm run stack');
    stack = new ManagedProcess('npm run stack', 'sh', ['-c', stackCommand], {
      cwd: repoRoot,
      env: { ...process.env, ARGCHECK_STACK_FREE_PORTS: '1' },
      onLine: (line) => lines.push(line),
    });
    const hint = await waitFor(
      'the stack to print the demo command',
      () => {
        stack!.assertAlive();
        const i = lines.findIndex((l) => l.startsWith('Now run the demo into it'));
        return i >= 0 ? lines[i + 1]?.trim() : undefined;
      },
      { timeoutMs: 300_000, intervalMs: 250, detail },
    );
    mark('stack ready');
    const otlp = /--otlp (\S+)/.exec(hint)?.[1];
    expect(otlp, hint).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The stack's own hint is the doc's command, at the port it listens on.
    expect(hint).to.equal(demoCommand.replace(DOC_OTLP, otlp!));
    const pids = startedPids(lines);
    expect([...pids.keys()].sort()).to.deep.equal(
      ['alert-receiver', 'alertmanager', 'collector', 'prometheus'].sort(),
    );

    const command = replaceExactly(demoCommand, new RegExp(DOC_OTLP), otlp!, 1, 'the demo command');
    demo = new ManagedProcess('demo', 'sh', ['-c', command], { cwd: repoRoot });
    await demo.whenExited();
    mark('demo done');
    expect(demo.exit, demo.describe()).to.equal('status 0');

    await waitFor(
      'firing and resolved at the receiver, for both alerts',
      () => {
        stack!.assertAlive();
        const seen = receiverAlerts(lines);
        return EXPECTED.every((e) => seen.has(e)) ? seen : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500, detail },
    );
    mark('both resolved');

    // The demo's series are its own run's, not the collector's address.
    const prometheusUrl = /Prometheus\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(lines.join('\n'))?.[1];
    const prometheus = new PrometheusClient(prometheusUrl!);
    const identities = await prometheus.query(
      'count by (job, instance) (tool_argument_value_check_total)',
    );
    expect(identities).to.have.length(1);
    expect(identities[0]!.metric.job).to.equal('argcheck-demo');
    expect(identities[0]!.metric.instance).to.match(/^argcheck-demo-[0-9a-f-]{36}$/);

    // The doc's report command, on the log records the collector wrote.
    const report = new ManagedProcess(
      'report',
      'sh',
      ['-c', commandOf(exampleBlock(DOC, 'report'))],
      {
        cwd: repoRoot,
      },
    );
    await report.whenExited();
    expect(report.exit, report.describe()).to.equal('status 0');
    expect(report.log).to.match(/refund_order\.reason_code → refunds\.reason_codes/);

    // Ctrl-C in the terminal: SIGINT to the whole foreground process group.
    process.kill(-stack.pid!, 'SIGINT');
    await stack.whenExited();
    mark('stopped');
    const stopped = lines.find((l) => l.startsWith('stopped: '));
    expect(stopped, detail()).to.be.a('string');
    for (const [name, pid] of pids) {
      expect(stopped).to.include(`${name} ${pid} (status 0)`);
      expect(alive(pid), `${name} (pid ${pid}) still running`).to.equal(false);
    }
  });
});
