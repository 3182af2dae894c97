// Issue 21, item 4: setConfig threw away the sets being served. Right after
// setConfig with the same sets and a new ttlMs, reject mode let an invented
// value through as `unavailable: cold` until the reload finished; switching
// observe -> reject during an owner outage left the set `fetch_failed`
// although the old engine was serving it stale. A set whose source did not
// change now keeps its members, age and state across setConfig.
import { expect } from 'chai';
import { ErrorCode, functionValueSet, staticValueSet } from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { REFUND_ARGUMENTS, REFUND_CODES, REFUNDS } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { recordFigure } from '@argcheck/testing/figures';

const INVENTED = { order_id: 'o-1', reason_code: 'INVENTED' };

describe('regression: setConfig threw away the sets being served', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('reject: the same sets under a new ttlMs reject an invented value at once', async () => {
    const clock = new ManualClock();
    const config = {
      valueSets: { [REFUNDS]: staticValueSet(REFUND_CODES) },
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject' as const,
      clock,
    };
    h = harness(config);
    await h.inst.ready();
    await clock.tick(60_000);
    // Built again from the same settings, as a configuration reload would.
    h.inst.setConfig({
      ...config,
      valueSets: { [REFUNDS]: staticValueSet(REFUND_CODES) },
      ttlMs: 600_000,
    });
    expect(h.inst.check('refund_order', INVENTED).action).to.equal('reject');
    expect(h.inst.valueSets.status()).to.deep.equal([
      {
        name: REFUNDS,
        source: 'static',
        state: 'fresh',
        size: 4,
        ageSeconds: 60,
        fetchedAt: clock.now() - 60_000,
      },
    ]);
  });

  it('observe -> reject during an owner outage: the set is served stale and the invented value rejected', async () => {
    const clock = new ManualClock();
    let down = false;
    const source = functionValueSet(() =>
      down ? Promise.reject(new Error('owner down')) : [...REFUND_CODES],
    );
    const config = { valueSets: { [REFUNDS]: source }, checkedArguments: REFUND_ARGUMENTS, clock };
    h = harness(config);
    await h.inst.ready();
    down = true;
    await clock.tick(10 * 60_000); // past the 5-minute TTL: stale, refreshes failing
    expect(h.inst.valueSets.status()[0]).to.include({ state: 'stale' });
    h.inst.setConfig({ ...config, mode: 'reject' });
    const outcome = h.inst.check('refund_order', INVENTED);
    expect(outcome.action).to.equal('reject');
    expect(
      outcome.findings.map((f) => (f.status === 'checked' ? [f.inSet, f.shape] : f.status)),
    ).to.deep.equal([[false, 'invented']]);
    expect(h.inst.valueSets.status()[0]).to.include({ state: 'stale', size: 4, ageSeconds: 600 });
    const [status] = h.inst.valueSets.status();
    recordFigure(
      'set-config-same-sets',
      `owner down 10 min, then observe → reject: the set \`${status?.state}\` (${status?.size} members, ${status?.ageSeconds} s old), the invented value \`${outcome.action}\`ed at once`,
    );
  });

  it('a setConfig refused (UNKNOWN_SET) leaves the sets being served as they were, and no new timer running', async () => {
    const clock = new ManualClock();
    const config = {
      valueSets: { [REFUNDS]: staticValueSet(REFUND_CODES) },
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject' as const,
      clock,
    };
    h = harness(config);
    await h.inst.ready();
    await clock.tick(60_000);
    const timers = clock.pending();
    expect(() =>
      h.inst.setConfig({ ...config, checkedArguments: { refund_order: { reason_code: 'nope' } } }),
    )
      .to.throw()
      .with.property('code', ErrorCode.UNKNOWN_SET);
    expect(clock.pending()).to.equal(timers);
    expect(h.inst.check('refund_order', INVENTED).action).to.equal('reject');
  });
});
