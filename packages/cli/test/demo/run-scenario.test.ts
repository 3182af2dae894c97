import { expect } from 'chai';
import { createAgent } from '../../src/demo/agent.js';
import {
  runScenario,
  type CallTool,
  type RepairExample,
  type ToolReply,
} from '../../src/demo/run-scenario.js';
import type { RouteName } from '../../src/demo/traffic.js';
import { scenarioTiming } from '../../src/demo/scenario.js';
import { activeHandles, componentIds } from '../../src/demo/value-set-data.js';
import { demoChecker } from '../helpers/demo-checker.js';

const data = { components: componentIds(1), handles: activeHandles(1) };

/** A clock that jumps instead of sleeping: the run takes no wall-clock time. */
function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: (ms: number) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

describe('runScenario', () => {
  it('paces the calls over the duration and announces each phase once, in order', async () => {
    const clock = fakeClock();
    const phases: number[] = [];
    const timing = { ...scenarioTiming(10_000), totalCalls: 200 };
    const ok: CallTool = () => Promise.resolve({ isError: false, text: 'ok' });
    const tallies = await runScenario({
      timing,
      agent: createAgent(1, data),
      mode: 'observe',
      callTool: ok,
      clock,
      onPhase: (i) => Promise.resolve(void phases.push(i)),
    });
    expect(phases).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
    expect(clock.now()).to.equal((199 / 200) * 10_000);
    const planned = Object.values(tallies).reduce((sum, t) => sum + t.planned, 0);
    expect(planned).to.equal(200);
    for (const t of Object.values(tallies)) expect(t.succeeded).to.equal(t.planned);
  });

  it('moves the schedule instead of hurrying after a stall', async () => {
    const clock = fakeClock();
    const started: number[] = [];
    let calls = 0;
    // One call stalls for 300 ms; catching up afterwards would squeeze the next stretches.
    const stallOnce: CallTool = async () => {
      calls += 1;
      if (calls === 5) await clock.sleep(300);
      return { isError: false, text: 'ok' };
    };
    await runScenario({
      timing: { ...scenarioTiming(1_000), totalCalls: 100 },
      agent: createAgent(1, data),
      mode: 'observe',
      callTool: stallOnce,
      clock,
      onPhase: () => Promise.resolve(void started.push(clock.now())),
    });
    const lengths = started.slice(1).map((t, i) => t - (started[i] ?? 0));
    // Planned: 250, 100, 100, 150, 120 and 160 ms; the lag allowance is 20 ms.
    const planned = [250, 100, 100, 150, 120, 160];
    expect(lengths.filter((ms, i) => ms < (planned[i] ?? 0) - 20)).to.deep.equal([]);
  });

  it('in reject mode, retries a refused call once with the repaired arguments, in the same turn', async () => {
    const { checker, close } = await demoChecker('reject');
    const sent: string[] = [];
    let turn: RouteName | undefined;
    const turns: RouteName[] = [];
    const outsideTheirTurn: string[] = [];
    // Stands in for the instrumented client: refuse with the checker's repair message.
    const callTool: CallTool = (tool, args, route): Promise<ToolReply> => {
      if (route !== turn) outsideTheirTurn.push(`${tool} on ${route}`);
      const outcome = checker.check(tool, args);
      sent.push(outcome.action);
      return Promise.resolve(
        outcome.action === 'reject'
          ? { isError: true, text: outcome.repairMessage ?? '' }
          : { isError: false, text: 'ok' },
      );
    };
    const examples: RepairExample[] = [];
    const tallies = await runScenario({
      timing: { ...scenarioTiming(10_000), totalCalls: 2_000 },
      agent: createAgent(2, data),
      mode: 'reject',
      callTool,
      clock: fakeClock(),
      onPhase: () => Promise.resolve(),
      turn: async (route, fn) => {
        turn = route;
        turns.push(route);
        try {
          return await fn();
        } finally {
          turn = undefined;
        }
      },
      onRepair: (example) => void examples.push(example),
    });
    close();
    const sum = (key: 'planned' | 'attempts' | 'rejected' | 'repaired' | 'succeeded'): number =>
      Object.values(tallies).reduce((total, t) => total + t[key], 0);
    expect(sum('rejected')).to.be.greaterThan(10);
    expect(sum('attempts')).to.equal(sum('planned') + sum('rejected'));
    expect(sum('repaired')).to.equal(sum('rejected'));
    expect(sum('succeeded')).to.equal(sum('planned'));
    expect(sent.length).to.equal(sum('attempts'));
    expect(outsideTheirTurn).to.deep.equal([]);
    expect(turns).to.have.length(sum('planned'));
    expect(new Set(turns)).to.deep.equal(new Set(['original', 'rewritten', 'canary']));
    // The first refusal of each tool, with the message the checker wrote for what was sent.
    expect(examples.map((e) => e.tool).sort()).to.deep.equal(['create_ticket', 'refund_order', 'transfer_stock']);
    for (const e of examples) {
      expect(e.message).to.equal(checker.check(e.tool, e.sent).repairMessage);
      expect(checker.check(e.tool, e.retried).action).to.not.equal('reject');
      expect(e.retryAccepted).to.equal(true);
    }
  }); // prettier-ignore

  it('stops early when aborted, keeping what was counted', async () => {
    const stop = new AbortController();
    const tallies = await runScenario({
      timing: { ...scenarioTiming(10_000), totalCalls: 100 },
      agent: createAgent(1, data),
      mode: 'observe',
      callTool: () => Promise.resolve({ isError: false, text: 'ok' }),
      clock: fakeClock(),
      onPhase: () => Promise.resolve(),
      onProgress: (done) => {
        if (done === 10) stop.abort();
      },
      signal: stop.signal,
    });
    expect(Object.values(tallies).reduce((sum, t) => sum + t.planned, 0)).to.equal(10);
  });
});
