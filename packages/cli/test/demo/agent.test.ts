import { expect } from 'chai';
import { createAgent, listedValues, type PlannedCall } from '../../src/demo/agent.js';
import { phaseAt } from '../../src/demo/scenario.js';
import { activeHandles, componentIds } from '../../src/demo/value-set-data.js';
import { demoChecker } from '../helpers/demo-checker.js';

const data = { components: componentIds(1), handles: activeHandles(1) };
const baseline = phaseAt(0).profile;

function calls(seed: number, n: number): PlannedCall[] {
  const agent = createAgent(seed, data);
  return Array.from({ length: n }, () => agent.next(baseline));
}

describe('demo agent', () => {
  it('replays the same calls for the same seed, and other calls for another', () => {
    expect(calls(7, 300)).to.deep.equal(calls(7, 300));
    expect(calls(8, 300)).to.not.deep.equal(calls(7, 300));
  });

  it('slips at the profile rate within a call, with the shape mix of the profile', () => {
    const refunds = calls(3, 4_000).filter((c) => c.tool === 'refund_order');
    const slips = refunds.flatMap((c) => c.slips);
    // Error diffusion keeps the count within one of the target.
    expect(Math.abs(slips.length - refunds.length * 0.062)).to.be.at.most(1);
    const caseOrFormat = slips.filter((s) => s.shape === 'case' || s.shape === 'format').length;
    expect(caseOrFormat / slips.length).to.be.closeTo(0.27, 0.02);
  });

  it("sends calls on the routes in the profile's shares, each route slipping at its own rate", () => {
    const agent = createAgent(4, data);
    const canary = phaseAt(3).profile;
    const planned = Array.from({ length: 6_000 }, () => agent.next(canary));
    expect(planned.filter((c) => c.route === 'canary').length).to.be.within(895, 905);
    // The share holds for each tool, not only over all calls.
    for (const tool of ['refund_order', 'create_ticket', 'transfer_stock']) {
      const calls = planned.filter((c) => c.tool === tool);
      const canaries = calls.filter((c) => c.route === 'canary').length;
      expect(Math.abs(canaries - calls.length * 0.15), tool).to.be.at.most(2);
    }
    expect(planned.filter((c) => c.route === 'original')).to.deep.equal([]);
    for (const [route, rate] of [
      ['rewritten', 0.011],
      ['canary', 0.034],
    ] as const) {
      const refunds = planned.filter((c) => c.tool === 'refund_order' && c.route === route);
      const slips = refunds.flatMap((c) => c.slips).length;
      expect(Math.abs(slips - refunds.length * rate), route).to.be.at.most(1);
    }
  });

  it('mixes the tools by the profile weights', () => {
    const mix = calls(5, 2_000).reduce<Record<string, number>>((acc, c) => {
      acc[c.tool] = (acc[c.tool] ?? 0) + 1;
      return acc;
    }, {});
    expect(mix).to.deep.equal({ refund_order: 900, create_ticket: 700, transfer_stock: 400 });
  });

  it('repairs a rejected call by choosing from the values the real repair message lists', async () => {
    const { checker, close } = await demoChecker('reject');
    const agent = createAgent(11, data);
    let repaired = 0;
    for (let i = 0; i < 3_000; i += 1) {
      const call = agent.next(baseline);
      const first = checker.check(call.tool, call.args);
      if (first.action !== 'reject') continue;
      const second = checker.check(call.tool, agent.repair(call, first.repairMessage ?? ''));
      expect(second.action, first.repairMessage).to.not.equal('reject');
      repaired += 1;
    }
    close();
    expect(repaired).to.be.greaterThan(20);
  });

  it('reads listed values per argument from small and large-set repair messages', () => {
    const message =
      'transfer_stock was not called: arguments are not a legal value. ' +
      '"items[1].warehouse_code" must be one of: "AMS1", "FRA1" (got "ams 9"). ' +
      '"assignee" must be a member of identity.active_handles (300 values; got "amira"). ' +
      'Closest: "amira.okafor", "amira.silva". Call the tool again using only the listed values.';
    expect([...listedValues(message)]).to.deep.equal([
      ['items[1].warehouse_code', ['AMS1', 'FRA1']],
      ['assignee', ['amira.okafor', 'amira.silva']],
    ]);
  });
});
