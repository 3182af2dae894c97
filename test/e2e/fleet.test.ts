import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseExposition } from '../pipeline/support/exposition.js';
import { REPO_ROOT } from '../pipeline/tools.js';
import { waitFor } from '../helpers/wait.js';
import { FleetStack, cleanEnv } from './support/fleet-stack.js';
import {
  ALIASES,
  KILL_AFTER,
  PROCESSES,
  REASONS,
  RESTARTED,
  ROUNDS,
  SET,
  TOOL,
  everyProcess,
  expectedSums,
  seriesKey,
  trueRatio,
  type FleetProcess,
} from './support/fleet-workload.js';
import { ValueSetOwner } from '@argcheck/testing/owners';
import { ManagedProcess } from '../../deploy/stack/src/processes.js';
import type { PrometheusClient } from './support/stack.js';

// A fleet, for real: six Node processes with the OpenTelemetry SDK (four of
// one service, two of them without a service.instance.id), two agent
// collectors, one gateway collector, and two stores fed from it — Prometheus
// by scrape, VictoriaMetrics by vmagent's remote write — both evaluating
// deploy/prometheus/rules/argcheck.rules.yml. The processes and their traffic
// are in support/fleet-workload.ts; docs/scaling.md, "A fleet", describes
// what this test shows.

const COUNTERS = ['tool_argument_value_check_total', 'tool_argument_mismatch_total'];
/** Samples every series needs before rate() ratios are exact (docs/pipeline.md, "The end-to-end test"). */
const MIN_SAMPLES = 13;
const AGENT_SCRIPT = join(REPO_ROOT, 'build/test/e2e/support/fleet-agent.js');

interface Handle {
  process: ManagedProcess;
  port: number;
}

/** Counter samples summed over `instance`, by series key. */
function sumOverInstances(
  samples: { name: string; labels: Record<string, string>; value: number }[],
): Map<string, number> {
  const out = new Map<string, number>();
  for (const { name, labels, value } of samples) {
    if (!COUNTERS.includes(name)) continue;
    const rest = Object.fromEntries(Object.entries(labels).filter(([k]) => k !== 'instance'));
    const key = seriesKey(name, rest);
    out.set(key, (out.get(key) ?? 0) + value);
  }
  return out;
}

const sorted = (m: Map<string, number>): Record<string, number> =>
  Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));

async function storeSamples(
  store: PrometheusClient,
): Promise<{ name: string; labels: Record<string, string>; value: number }[]> {
  const result = await store.query(`{__name__=~"${COUNTERS.join('|')}"}`);
  return result.map(({ metric, value }) => {
    const { __name__: name, ...labels } = metric;
    return { name: name!, labels, value: Number(value[1]) };
  });
}

describe('e2e fleet: processes → agent collectors → gateway → Prometheus and VictoriaMetrics', function () {
  this.timeout(300_000);

  const keep = process.env.ARGCHECK_E2E_KEEP === '1';
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-fleet-'));
  const stack = new FleetStack(dir);
  const owner = new ValueSetOwner();
  const handles = new Map<string, Handle>();
  /** Rounds each process has run since it (last) started: what its counters hold. */
  const sinceStart = everyProcess(0);
  /** Rounds each process has run in all. */
  const total = everyProcess(0);

  const diagnostics = (): string =>
    [stack.diagnostics(), ...[...handles.values()].map((h) => h.process.describe(5))].join('\n');

  async function startProcess(p: FleetProcess): Promise<Handle> {
    const env = cleanEnv({
      ARGCHECK_FLEET_PROCESS: JSON.stringify({
        id: p.id,
        otlpUrl: stack.otlpUrl(p.via),
        valueSetUrl: owner.url(SET),
      }),
      // Only metrics: no trace or log exporter to a default address.
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      ...(p.sdk === 'node-sdk-all-detectors' ? { OTEL_NODE_RESOURCE_DETECTORS: 'all' } : {}),
      ...(p.instanceId ? { OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${p.instanceId}` } : {}),
    });
    const child = new ManagedProcess(`process ${p.id}`, process.execPath, [AGENT_SCRIPT], {
      cwd: REPO_ROOT,
      env,
    });
    const port = await waitFor(
      `process ${p.id} to be ready`,
      () => {
        child.assertAlive();
        const match = /FLEET-AGENT-READY port=(\d+)/.exec(child.log);
        return match ? Number(match[1]) : undefined;
      },
      { timeoutMs: 30_000, detail: () => child.describe() },
    );
    const handle = { process: child, port };
    handles.set(p.id, handle);
    return handle;
  }

  async function command(id: string, path: string): Promise<void> {
    const handle = handles.get(id)!;
    const res = await fetch(`http://127.0.0.1:${handle.port}${path}`, { method: 'POST' });
    expect(res.status, `${id} ${path}: ${await res.text()}\n${handle.process.describe()}`).to.equal(
      200,
    );
  }

  /** Run `n` rounds in each of `ids`, then export their counters. */
  async function rounds(ids: readonly string[], n: number): Promise<void> {
    for (const id of ids) {
      await command(id, `/rounds?n=${n}`);
      sinceStart[id]! += n;
      total[id]! += n;
    }
    await Promise.all(ids.map((id) => command(id, '/flush')));
  }

  /** Poll until the counters summed over instances are exactly the expected ones. */
  async function expectSums(
    where: string,
    read: () => Promise<{ name: string; labels: Record<string, string>; value: number }[]>,
  ): Promise<void> {
    const expected = sorted(expectedSums(sinceStart));
    let seen: Record<string, number> = {};
    await waitFor(
      `${where} to hold exactly ${JSON.stringify(sinceStart)} rounds`,
      async () => {
        seen = sorted(sumOverInstances(await read()));
        return JSON.stringify(seen) === JSON.stringify(expected) ? true : undefined;
      },
      {
        timeoutMs: 30_000,
        intervalMs: 250,
        detail: () =>
          `expected ${JSON.stringify(expected, null, 1)}\nseen ${JSON.stringify(seen, null, 1)}\n${diagnostics()}`,
      },
    );
  }

  const atExporter = async (): Promise<
    { name: string; labels: Record<string, string>; value: number }[]
  > => parseExposition(await (await fetch(stack.exporterUrl)).text());

  async function expectSumsEverywhere(): Promise<void> {
    await expectSums('the gateway exporter', atExporter);
    await expectSums('Prometheus', () => storeSamples(stack.prometheus));
    await expectSums('VictoriaMetrics', () => storeSamples(stack.victoria));
  }

  before(async function () {
    owner.define(
      SET,
      REASONS.map((value) => ({ value, aliases: ALIASES[value] ?? [] })),
    );
    await owner.start();
    await stack.startCollectors();
    for (const p of PROCESSES) await startProcess(p);
  });

  after(async function () {
    for (const h of handles.values()) await h.process.stop();
    await stack.stop();
    await owner.stop();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  });

  it('the true ratio is neither any one process’s ratio nor their mean (what a lost sum would show)', () => {
    const refund = PROCESSES.filter((p) => p.sdk !== 'rogue');
    const ratios = refund.map((p) => trueRatio({ [p.id]: 1 }));
    const truth = trueRatio(everyProcess(1));
    for (const r of [...ratios, ratios.reduce((a, b) => a + b, 0) / ratios.length]) {
      expect(Math.abs(r - truth)).to.be.greaterThan(0.005);
    }
  });

  it('the baseline adds up at the gateway, then in both stores, which start after it', async function () {
    await rounds(
      PROCESSES.map((p) => p.id),
      1,
    );
    await expectSums('the gateway exporter', atExporter);
    // Every series reaches each store in its first scrape: the same first
    // sample time for all, which the exact rate() ratios below rely on.
    await stack.startStores();
    await expectSums('Prometheus', () => storeSamples(stack.prometheus));
    await expectSums('VictoriaMetrics', () => storeSamples(stack.victoria));
  });

  it('each process is a series of its own: service.instance.id, or host:pid composed by the collector', async function () {
    const pid = (id: string): number => handles.get(id)!.process.pid!;
    const instances = await stack.prometheus.query(
      'group by (job, instance) (tool_argument_value_check_total)',
    );
    const seen = instances.map((s) => `${s.metric.job}/${s.metric.instance}`).sort();
    const uuid = seen.find((s) => /^refund-agent\/[0-9a-f]{8}-[0-9a-f]{4}-/.test(s));
    expect(seen).to.deep.equal(
      [
        `refund-agent/${hostname()}:${pid('a1')}`,
        `refund-agent/${hostname()}:${pid('a2')}`,
        uuid ?? 'refund-agent/<a random service.instance.id from the serviceinstance detector>',
        'refund-agent/refund-agent-4',
        'refund-legacy/refund-legacy-1',
        'refund-legacy/refund-legacy-2',
      ].sort(),
    );
    for (const h of handles.values()) {
      expect(h.process.log, h.process.describe()).not.to.contain('cannot be told apart');
    }
  });

  it('sums stay exact while a process is killed and started again (its counters restart at zero)', async function () {
    const ids = PROCESSES.map((p) => p.id);
    const others = ids.filter((id) => id !== RESTARTED);
    await rounds(ids, KILL_AFTER - 1);
    await expectSumsEverywhere();

    const victim = handles.get(RESTARTED)!.process;
    victim.signal('SIGKILL');
    await waitFor(`process ${RESTARTED} to die`, () => (victim.alive ? undefined : true));
    await rounds(others, 3);
    // Until it comes back, its last counts stay in the stores as they were.
    await expectSumsEverywhere();

    await startProcess(PROCESSES.find((p) => p.id === RESTARTED)!);
    sinceStart[RESTARTED] = 0;
    await rounds([RESTARTED], 1);
    // Both stores must see the drop (a counter reset) before it grows again.
    await expectSumsEverywhere();

    await rounds(others, ROUNDS - total.a1!);
    await rounds([RESTARTED], ROUNDS - total[RESTARTED]!);
    expect(total).to.deep.equal(everyProcess(ROUNDS));
    // Nothing counted twice: the restarted process's series holds only what
    // it counted since the restart.
    await expectSumsEverywhere();
  });

  it('every series carries exactly its contract labels, in both stores', async function () {
    for (const store of [stack.prometheus, stack.victoria]) {
      const samples = await storeSamples(store);
      const keys = new Set(
        samples.map((s) => `${s.name}: ${Object.keys(s.labels).sort().join(',')}`),
      );
      expect([...keys].sort()).to.deep.equal([
        'tool_argument_mismatch_total: argument,instance,job,set,shape,tool',
        'tool_argument_value_check_total: argument,in_set,in_set_normalised,instance,job,set,tool',
      ]);
    }
  });

  it('the invention-rate rule reads the true ratio over all processes, in Prometheus and in VictoriaMetrics (vmalert)', async function () {
    const truth = trueRatio(total);
    await waitFor(
      `${MIN_SAMPLES} samples of every series in Prometheus`,
      async () =>
        ((await stack.prometheus.scalar(
          'min(count_over_time(tool_argument_value_check_total[1h]))',
        )) ?? 0) >= MIN_SAMPLES
          ? true
          : undefined,
      { timeoutMs: 60_000, intervalMs: 500, detail: diagnostics },
    );
    const ratio = `tool_argument:out_of_set:ratio_rate1h{tool="${TOOL}"}`;
    const close = (v: number | undefined, within = 1e-12): boolean =>
      v !== undefined && Math.abs(v - truth) < within;
    const inventionAlert = async (store: PrometheusClient): Promise<number | undefined> => {
      const alert = (await store.alerts()).find(
        (a) => a.labels.alertname === 'ToolArgumentInventionRate' && a.labels.tool === TOOL,
      );
      return alert && alert.state === 'pending' ? Number(alert.value) : undefined;
    };
    // vmalert's API prints an alert's value as a float32 (7 significant digits).
    for (const [name, store, alerts, alertPrecision] of [
      ['Prometheus', stack.prometheus, stack.prometheus, 1e-12],
      ['VictoriaMetrics', stack.victoria, stack.vmalert, truth * 1e-6],
    ] as const) {
      let last: unknown;
      await waitFor(
        `${name}: ${ratio} and the pending ToolArgumentInventionRate alert to equal ${truth}`,
        async () => {
          const recorded = await store.scalar(ratio);
          const alert = await inventionAlert(alerts);
          last = { recorded, alert };
          return close(recorded) && close(alert, alertPrecision) ? true : undefined;
        },
        {
          timeoutMs: 30_000,
          intervalMs: 500,
          detail: () => `last ${JSON.stringify(last)}\n${diagnostics()}`,
        },
      );
    }
  });
});
