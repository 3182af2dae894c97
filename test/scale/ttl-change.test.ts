import { expect } from 'chai';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { ValueSetSource } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import type { ToolArgumentInstrumentationConfig } from '@argcheck/instrumentation';
import { ManualClock } from '@argcheck/testing/clock';
import { PullReader } from '@argcheck/testing/metrics';
import { recordFigure } from '@argcheck/testing/figures';

// A row of the fault matrix (docs/reliability.md): the TTL changed at run
// time through setConfig. The new provider must fetch at the new pace, the
// old one must stop, and the counters must keep their running totals.

const MINUTE = 60_000;
const CODES = ['DAMAGED', 'LATE', 'OTHER'];

describe('fault matrix: the TTL changed at run time', () => {
  it('setConfig with a new ttlMs fetches at the new pace, stops the old provider, and keeps the totals', async () => {
    const clock = new ManualClock();
    let loads = 0;
    const source: ValueSetSource = {
      kind: 'function',
      load: () => {
        loads += 1;
        return Promise.resolve(CODES.map((value) => ({ value })));
      },
    };
    const config = (ttlMs: number): ToolArgumentInstrumentationConfig => ({
      valueSets: { refunds: source },
      checkedArguments: { refund_order: { reason_code: 'refunds' } },
      clock,
      // Refresh jitter fixed: each refresh at 0.95 × the TTL (285 s, then 57 s).
      random: () => 0.5,
      ttlMs,
      mcp: { enabled: false },
    });
    const reader = new PullReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const inst = new ToolArgumentInstrumentation(config(5 * MINUTE));
    const unregister = registerInstrumentations({ instrumentations: [inst], meterProvider });
    try {
      await inst.ready();
      for (let i = 0; i < 10; i++) inst.check('refund_order', { reason_code: 'LATE' });
      const start = loads;
      await clock.tick(10 * MINUTE);
      expect(loads - start, 'fetches in 10 min at a 5 min TTL').to.equal(2);

      const switched = loads;
      inst.setConfig(config(MINUTE));
      await inst.ready();
      // The same source: the set carries over as it was (fetched 30 s ago), nothing is fetched again.
      expect(loads - switched, 'fetches at setConfig').to.equal(0);
      expect(inst.valueSets.status()[0]).to.include({ state: 'fresh', ageSeconds: 30 });
      for (let i = 0; i < 10; i++) inst.check('refund_order', { reason_code: 'LATE' });
      await clock.tick(10 * MINUTE);
      // At the new pace from the fetch it carried over: 27 s after the switch
      // (57 s after that fetch), then every 57 s, eleven in ten minutes; none
      // from the old provider, which setConfig closed.
      expect(loads - switched, 'fetches in 10 min at a 1 min TTL').to.equal(11);

      const { resourceMetrics } = await reader.collect();
      const check = resourceMetrics.scopeMetrics
        .flatMap((s) => s.metrics)
        .find((m) => m.descriptor.name === 'tool_argument_value_check');
      // All 20 in set; the argument's other two series are exported at zero.
      expect(
        check?.dataPoints.map((p) => [
          p.attributes.in_set,
          p.attributes.in_set_normalised,
          p.value,
        ]),
      ).to.deep.equal([
        ['true', 'true', 20],
        ['false', 'true', 0],
        ['false', 'false', 0],
      ]);
      recordFigure(
        'ttl-set-config',
        `2 fetches in 10 min at TTL 300 s, 0 at the switch, ${loads - switched} in the 10 min after switching to 60 s; ${Number(check?.dataPoints[0]?.value)} of 20 checks counted across the switch`,
      );
    } finally {
      unregister();
      inst.close();
      await meterProvider.shutdown();
    }
    expect(clock.pending(), 'timers left behind').to.equal(0);
  });
});
