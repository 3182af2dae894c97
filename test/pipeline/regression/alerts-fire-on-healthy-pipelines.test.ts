// Issue 21, items 1 and 2: alerts that fire on a healthy pipeline. The
// shipped rules are run by promtool over the series the code really exports:
// an instrumentation on an injected clock, an MCP client listing the shop
// server's tools once, checks every minute for hours, its metrics collected
// every minute and written as promtool input series (counters `_total`, the
// age gauge `_seconds`, as the collector's Prometheus exporter names them).
//
// - Item 1: sets derived from an MCP server's enums, listed once and checked
//   for three hours, raise no ToolArgumentValueSetStale; they are exported as
//   source="tool_schema", told apart from a vendored constant.
// - Item 2: unreadable JSON arguments (two calls every ten minutes) against a
//   healthy owner raise no ToolArgumentCheckUnavailable.
// - And the real cases still fire from the same code: an owner that stops
//   answering raises ToolArgumentValueSetStale, then, once its copy expired,
//   ToolArgumentCheckUnavailable.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { functionValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { ManualClock } from '@argcheck/testing/clock';
import { collectPoints, PullReader } from '@argcheck/testing/metrics';
import type { Collected } from '@argcheck/testing/metrics';
import { sdkV1InMemory } from '@argcheck/testing/shop';
import { REPO_ROOT, requireCommand, run } from '../tools.js';
import { recordFigure } from '@argcheck/testing/figures';

const MINUTE = 60_000;
const CODES = ['DAMAGED', 'DUPLICATE_CHARGE', 'LATE', 'NOT_AS_DESCRIBED'];

/** Prometheus names of the instruments the rules read, as the collector's exporter writes them. */
const PROMETHEUS_NAME: Readonly<Record<string, string>> = {
  tool_argument_value_check: 'tool_argument_value_check_total',
  tool_argument_check_unavailable: 'tool_argument_check_unavailable_total',
  tool_argument_value_set_age: 'tool_argument_value_set_age_seconds',
  tool_argument_value_set_size: 'tool_argument_value_set_size',
};

/** Every series seen, by its selector text: one sample per minute (`_` when absent). */
class Samples {
  private readonly series = new Map<string, (number | undefined)[]>();
  private minutes = 0;

  add(collected: Collected): void {
    for (const [instrument, name] of Object.entries(PROMETHEUS_NAME)) {
      for (const point of collected.points[instrument] ?? []) {
        const labels = Object.entries(point.attributes)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => `${k}=${JSON.stringify(String(v))}`)
          .join(',');
        const key = `${name}{${labels}}`;
        let values = this.series.get(key);
        if (values === undefined) {
          values = new Array<number | undefined>(this.minutes).fill(undefined);
          this.series.set(key, values);
        }
        values[this.minutes] = point.value as number;
      }
    }
    this.minutes++;
  }

  names(): string[] {
    return [...this.series.keys()];
  }

  inputSeries(): { series: string; values: string }[] {
    return [...this.series].map(([series, values]) => ({
      series,
      values: Array.from({ length: this.minutes }, (_, i) => {
        const v = values[i];
        return v === undefined ? '_' : String(Math.round(v * 1000) / 1000);
      }).join(' '),
    }));
  }
}

interface Scenario {
  /** The configured set's owner answers at this minute. */
  ownerUp: (minute: number) => boolean;
  /** Calls a minute with JSON arguments that do not parse, at this minute. */
  unreadable: (minute: number) => number;
}

/** Three hours of one process, sampled every minute. */
async function exportedSeries(scenario: Scenario, minutes = 180): Promise<Samples> {
  const clock = new ManualClock();
  let minute = 0;
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const inst = new ToolArgumentInstrumentation({
    clock,
    random: () => 0.5,
    mcp: { enabled: false },
    frameworks: { enabled: false },
    valueSets: {
      'refunds.reason_codes': functionValueSet(() =>
        scenario.ownerUp(minute) ? [...CODES] : Promise.reject(new Error('owner down')),
      ),
    },
    checkedArguments: { issue_refund: { reason_code: 'refunds.reason_codes' } },
  });
  inst.setMeterProvider(meterProvider);
  const shop = await sdkV1InMemory.connect({ instrument: (c) => inst.instrumentMcpClient(c) });
  try {
    await shop.client.listTools();
    await inst.ready();
    const samples = new Samples();
    for (minute = 0; minute < minutes; minute++) {
      // A healthy agent's traffic: MCP calls against the derived sets, dispatcher calls against the owner's.
      for (let i = 0; i < 20; i++) {
        await shop.client.callTool({
          name: 'refund_order',
          arguments: { order_id: `o-${i}`, reason_code: CODES[i % CODES.length] as string },
        });
        inst.check('issue_refund', { reason_code: CODES[i % CODES.length] });
      }
      for (let i = 0; i < scenario.unreadable(minute); i++) {
        inst.check('issue_refund', '{"reason_code":"LATE",}');
      }
      samples.add(await collectPoints(reader));
      await clock.tick(MINUTE);
    }
    return samples;
  } finally {
    await shop.close();
    inst.close();
    await meterProvider.shutdown();
  }
}

/** promtool's verdict on `tests` over `samples` with the shipped rules. */
function promtool(
  samples: Samples,
  tests: object[],
  queries: object[] = [],
): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-rules-'));
  try {
    const file = join(dir, 'exported.test.json');
    // JSON is YAML: promtool reads it as a unit-test file.
    writeFileSync(
      file,
      JSON.stringify({
        rule_files: [join(REPO_ROOT, 'deploy/prometheus/rules/argcheck.rules.yml')],
        evaluation_interval: '1m',
        tests: [
          {
            interval: '1m',
            input_series: samples.inputSeries(),
            alert_rule_test: tests,
            promql_expr_test: queries,
          },
        ],
      }),
    );
    return run('promtool', ['test', 'rules', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const quiet = (alertname: string, ...minutes: number[]) =>
  minutes.map((m) => ({ eval_time: `${m}m`, alertname, exp_alerts: [] }));

describe('regression: alerts fired on a healthy pipeline (rules over exported series)', function () {
  this.timeout(120_000);
  before(() => requireCommand('promtool'));

  it('an MCP-derived set listed once and checked for three hours raises no ToolArgumentValueSetStale', async () => {
    const samples = await exportedSeries({ ownerUp: () => true, unreadable: () => 0 });
    const ages = samples
      .names()
      .filter((n) => n.startsWith('tool_argument_value_set_age_seconds'))
      .sort();
    expect(ages).to.deep.equal([
      'tool_argument_value_set_age_seconds{set="mcp:shop/refund_order.reason_code",source="tool_schema"}',
      'tool_argument_value_set_age_seconds{set="mcp:shop/transfer_stock.items[].warehouse_code",source="tool_schema"}',
      'tool_argument_value_set_age_seconds{set="refunds.reason_codes",source="function"}',
    ]);
    const result = promtool(samples, [
      ...quiet('ToolArgumentValueSetStale', 45, 90, 179),
      ...quiet('ToolArgumentCheckUnavailable', 45, 90, 179),
    ]);
    expect(result.status, result.output).to.equal(0);
    expect(result.output).to.match(/SUCCESS/);
    recordFigure(
      'healthy-pipeline-alerts',
      `promtool over three hours of exported series, a sample a minute: derived sets listed once (${ages.filter((a) => a.includes('tool_schema')).length} \`tool_schema\` age series), no alert at 45, 90 and 179 min`,
    );
  });

  it('unreadable arguments against a healthy owner raise no ToolArgumentCheckUnavailable', async () => {
    const samples = await exportedSeries({
      ownerUp: () => true,
      unreadable: (m) => (m % 10 === 0 ? 2 : 0),
    });
    expect(samples.names()).to.include(
      'tool_argument_check_unavailable_total{argument="reason_code",reason="unreadable",set="refunds.reason_codes",tool="issue_refund"}',
    );
    const result = promtool(samples, quiet('ToolArgumentCheckUnavailable', 30, 60, 120, 179));
    expect(result.status, result.output).to.equal(0);
    recordFigure(
      'healthy-pipeline-alerts',
      'unreadable arguments every tenth minute: no `ToolArgumentCheckUnavailable` at 30, 60, 120 and 179 min',
    );
  });

  it('an owner that stops answering still raises ToolArgumentValueSetStale, then ToolArgumentCheckUnavailable', async () => {
    // Down from minute 10: stale at 15 (TTL 5 min), age past 1800 s at 40,
    // firing 10 minutes later; expired at 75 (1 h past the TTL), failing open
    // from then, firing 15 minutes later (the stale alert goes on firing:
    // the copy is still not refreshed).
    const samples = await exportedSeries({ ownerUp: (m) => m < 10, unreadable: () => 0 });
    // Which alerts fire, by their labels (ALERTS; the annotations are the rule tests' concern).
    const firing = (m: number, ...alerts: Record<string, string>[]) => ({
      expr: 'ALERTS{alertstate="firing"}',
      eval_time: `${m}m`,
      exp_samples: alerts.map((labels) => ({
        labels: `ALERTS{${Object.entries({
          alertstate: 'firing',
          severity: 'warning',
          component: 'argcheck',
          ...labels,
        })
          .map(([k, v]) => `${k}="${v}"`)
          .join(',')}}`,
        value: 1,
      })),
    });
    const stale = {
      alertname: 'ToolArgumentValueSetStale',
      set: 'refunds.reason_codes',
      source: 'function',
    };
    const unavailable = { alertname: 'ToolArgumentCheckUnavailable', set: 'refunds.reason_codes' };
    const verdict = promtool(
      samples,
      [],
      [
        firing(30),
        firing(55, stale),
        firing(70, stale),
        firing(100, unavailable, stale),
        firing(179, unavailable, stale),
      ],
    );
    expect(verdict.status, verdict.output).to.equal(0);
    recordFigure(
      'healthy-pipeline-alerts',
      'the owner down from minute 10: `ToolArgumentValueSetStale` firing at 55 min, `ToolArgumentCheckUnavailable` too at 100',
    );
  });
});
