import { expect } from 'chai';
import { PHASES, phaseAt, phaseIndexAt, scenarioTiming } from '../../src/demo/scenario.js';

describe('demo scenario', () => {
  it('tells the reference story in order', () => {
    expect(
      PHASES.map((p) => [p.name, p.from, p.profile.outOfSet.reason_code, p.event]),
    ).to.deep.equal([
      ['baseline', 0, 0.062, undefined],
      ['description_rewrite', 0.25, 0.011, undefined],
      ['provider_migration', 0.45, 0.034, undefined],
      ['seventh_code', 0.6, 0.034, 'add_seventh_code'],
      ['identity_outage', 0.72, 0.034, 'identity_down'],
      ['identity_recovered', 0.88, 0.034, 'identity_up'],
    ]);
  });

  it('has case and format as 27 % of the baseline reason-code mismatches', () => {
    const shapes = phaseAt(0).profile.shapes.reason_code;
    const total = Object.values(shapes).reduce((sum, w) => sum + (w ?? 0), 0);
    expect(((shapes.case ?? 0) + (shapes.format ?? 0)) / total).to.equal(0.27);
  });

  it('scales the TTL and the stale allowance with the run, so the outage reaches unavailable', () => {
    const timing = scenarioTiming(60_000);
    expect(timing).to.deep.equal({
      durationMs: 60_000,
      totalCalls: 15_000,
      ttlMs: 3_000,
      maxStaleMs: 3_000,
      windowMs: 4_800,
    });
    const outage = (phaseAt(5).from - phaseAt(4).from) * timing.durationMs;
    expect(outage).to.be.greaterThan(timing.ttlMs + timing.maxStaleMs);
  });

  it('finds the phase of a call by its share of the run', () => {
    expect([0, 249, 250, 599, 600, 999].map((i) => phaseIndexAt(i, 1_000))).to.deep.equal([
      0, 0, 1, 2, 3, 5,
    ]);
  });
});
