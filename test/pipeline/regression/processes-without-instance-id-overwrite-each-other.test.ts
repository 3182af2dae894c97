import { expect } from 'chai';
import { startCollector, type RunningCollector } from '../support/collector-process.js';
import { samplesNamed } from '../support/exposition.js';
import { ARGCHECK_SCOPE, metricsRequest, sum } from '../support/otlp-json.js';
import { recordFigure } from '@argcheck/testing/figures';

// Defect: three processes of one service without service.instance.id (what
// NodeSDK's default resource detectors give: host.name and process.pid, no
// instance id) exported the same series; the Prometheus exporter kept the
// last one it received, so one process's counts stood for all three. The
// collector now composes service.instance.id from host.name and process.pid
// (docs/decisions/0014-process-identity.md).

const checks = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
const outOfSet = { ...checks, in_set: 'false', in_set_normalised: 'false' };

describe('regression: processes without service.instance.id overwrote each other', function () {
  this.timeout(60_000);
  let collector: RunningCollector;
  before(async () => {
    collector = await startCollector();
  });
  after(() => collector.stop());

  it('keeps one series per process: host:pid, pid alone, or the instance id given', async () => {
    const processes = [
      [{ 'host.name': 'h1', 'process.pid': 101 }, 100],
      [{ 'host.name': 'h1', 'process.pid': 102 }, 200],
      [{ 'host.name': 'h2', 'process.pid': 101 }, 300],
      [{ 'process.pid': 103 }, 400],
      [{ 'service.instance.id': 'pod-5', 'process.pid': 104, 'host.name': 'h1' }, 500],
    ] as const;
    for (const [resource, n] of processes) {
      await collector.post(
        '/v1/metrics',
        metricsRequest({ 'service.name': 'refund-agent', ...resource }, [
          {
            scope: ARGCHECK_SCOPE,
            items: [sum('tool_argument_value_check', '{check}', [[n, outOfSet]])],
          },
        ]),
      );
    }
    const text = await collector.scrapeWhen(
      'five series',
      (t) => samplesNamed(t, 'tool_argument_value_check_total').length === 5,
    );
    const byInstance: Record<string, number> = Object.fromEntries(
      samplesNamed(text, 'tool_argument_value_check_total').map((s): [string, number] => {
        expect(s.labels).to.deep.equal({
          ...outOfSet,
          job: 'refund-agent',
          instance: s.labels.instance!,
        });
        return [s.labels.instance!, s.value];
      }),
    );
    expect(byInstance).to.deep.equal({
      'h1:101': 100,
      'h1:102': 200,
      'h2:101': 300,
      'pid:103': 400,
      'pod-5': 500,
    });
    recordFigure(
      'processes-without-instance-id',
      `${processes.length} processes, ${Object.keys(byInstance).length} series: ${Object.entries(
        byInstance,
      )
        .map(([instance, n]) => `${instance} ${n}`)
        .join(', ')}`,
    );
  });
});
