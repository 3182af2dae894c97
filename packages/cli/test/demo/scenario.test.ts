import { expect } from 'chai';
import {
  CANARY_SHARE,
  PHASES,
  phaseAt,
  phaseIndexAt,
  ROUTE_BEHAVIOUR,
  scenarioTiming,
} from '../../src/demo/scenario.js';

describe('demo scenario', () => {
  it('tells the reference story in order', () => {
    expect(PHASES.map((p) => [p.name, p.from, p.profile.routes, p.event])).to.deep.equal([
      ['baseline', 0, { original: 1 }, undefined],
      ['description_rewrite', 0.25, { original: 0.5, rewritten: 0.5 }, undefined],
      ['rewrite_rolled_out', 0.35, { rewritten: 1 }, undefined],
      ['provider_canary', 0.45, { rewritten: 0.85, canary: 0.15 }, undefined],
      ['seventh_code', 0.6, { rewritten: 0.85, canary: 0.15 }, 'add_seventh_code'],
      ['identity_outage', 0.72, { rewritten: 0.85, canary: 0.15 }, 'identity_down'],
      ['identity_recovered', 0.88, { rewritten: 0.85, canary: 0.15 }, 'identity_up'],
    ]);
  });

  it('gives each route its reason-code rate: 6.2 %, 1.1 % after the rewrite, 3.4 % on the canary', () => {
    expect(
      Object.fromEntries(
        Object.entries(ROUTE_BEHAVIOUR).map(([route, b]) => [route, b.outOfSet.reason_code]),
      ),
    ).to.deep.equal({ original: 0.062, rewritten: 0.011, canary: 0.034 });
    // The canary barely moves the aggregate: 1.1 % → 1.4 %.
    const mixed = (1 - CANARY_SHARE) * 0.011 + CANARY_SHARE * 0.034;
    expect(mixed).to.be.closeTo(0.01445, 1e-9);
  });

  it("has case and format as 27 % of the current model's reason-code mismatches", () => {
    const shapes = ROUTE_BEHAVIOUR.original.shapes.reason_code;
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
    const outage = (phaseAt(6).from - phaseAt(5).from) * timing.durationMs;
    expect(outage).to.be.greaterThan(timing.ttlMs + timing.maxStaleMs);
  });

  it('finds the phase of a call by its share of the run', () => {
    expect([0, 249, 250, 349, 350, 599, 600, 999].map((i) => phaseIndexAt(i, 1_000))).to.deep.equal(
      [0, 0, 1, 1, 2, 3, 4, 6],
    );
  });
});
