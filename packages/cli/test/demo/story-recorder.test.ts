import { expect } from 'chai';
import { emptyTallies } from '../../src/demo/run-scenario.js';
import { createStoryRecorder } from '../../src/demo/story-recorder.js';
import type { SeriesPoint } from '../../src/demo/telemetry/snapshot.js';
import { refundSnapshot } from '../helpers/snapshots.js';

describe('story recorder', () => {
  it('computes each stretch from the difference of the collections at its ends', () => {
    const recorder = createStoryRecorder();
    const tallies = emptyTallies();
    recorder.begin('baseline', 'baseline', {
      calls: 0,
      ms: 0,
      snapshot: refundSnapshot(0, { members: 0, caseSlips: 0, invented: 0 }),
      tallies: structuredClone(tallies),
    });
    recorder.observe([
      { name: 'identity.active_handles', source: 'http', state: 'fresh', size: 3, ageSeconds: 2 },
    ]);
    tallies.create_ticket.planned = 10;
    tallies.create_ticket.succeeded = 10;
    recorder.begin('outage', 'identity down', {
      calls: 100,
      ms: 2_000,
      snapshot: refundSnapshot(2_000, { members: 94, caseSlips: 2, invented: 4 }),
      tallies: structuredClone(tallies),
    });
    recorder.observe([
      { name: 'identity.active_handles', source: 'http', state: 'stale', size: 3, ageSeconds: 7 },
    ]);
    recorder.observe([
      {
        name: 'identity.active_handles',
        source: 'http',
        state: 'unavailable',
        size: 0,
        ageSeconds: 9,
      },
    ]);
    tallies.create_ticket.planned = 15;
    tallies.create_ticket.succeeded = 15;
    const phases = recorder.finish({
      calls: 150,
      ms: 3_000,
      snapshot: refundSnapshot(3_000, { members: 142, caseSlips: 3, invented: 5, unavailable: 4 }),
      tallies: structuredClone(tallies),
    });
    expect(phases).to.deep.equal([
      {
        name: 'baseline',
        label: 'baseline',
        calls: 100,
        seconds: 2,
        refund: {
          checks: 100,
          outOfSet: 6,
          outOfSetNormalised: 4,
          outOfSetRate: 0.06,
          normalisedRate: 0.04,
          byModel: [],
          byDefinition: [],
        },
        unavailable: 0,
        createTicket: { planned: 10, succeeded: 10 },
        maxAgeSeconds: { 'identity.active_handles': 2 },
      },
      {
        name: 'outage',
        label: 'identity down',
        calls: 50,
        seconds: 1,
        refund: {
          checks: 50,
          outOfSet: 2,
          outOfSetNormalised: 1,
          outOfSetRate: 0.04,
          normalisedRate: 0.02,
          byModel: [],
          byDefinition: [],
        },
        unavailable: 4,
        createTicket: { planned: 5, succeeded: 5 },
        maxAgeSeconds: { 'identity.active_handles': 9 },
      },
    ]);
  });

  it('splits a stretch by model and by tool definition, as sum by (attribute) would', () => {
    const check = (model: string, definition: string, inSet: string, value: number): SeriesPoint => ({
      name: 'tool_argument_value_check',
      kind: 'counter',
      attributes: { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes', in_set: inSet, in_set_normalised: inSet, 'gen_ai.request.model': model, tool_definition: definition },
      value,
    });
    // Exported from start-up without attribution, at zero: no line of its own.
    const bare: SeriesPoint = { name: 'tool_argument_value_check', kind: 'counter', attributes: { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes', in_set: 'true', in_set_normalised: 'true' }, value: 0 };
    const at = (ms: number, old: [number, number], canary: [number, number]) => ({
      calls: ms,
      ms,
      snapshot: { at: ms, points: [bare, check('acme-chat-4', 'aaa', 'true', old[0]), check('acme-chat-4', 'aaa', 'false', old[1]), check('nova-large-1', 'aaa', 'true', canary[0]), check('nova-large-1', 'aaa', 'false', canary[1])] },
      tallies: emptyTallies(),
    });
    const recorder = createStoryRecorder();
    recorder.begin('before', 'before', at(0, [0, 0], [0, 0]));
    recorder.begin('canary', 'canary', at(1_000, [99, 1], [0, 0]));
    const [before, canary] = recorder.finish(at(2_000, [197, 3], [48, 2]));
    expect(before?.refund.byModel).to.deep.equal([{ value: 'acme-chat-4', checks: 100, outOfSet: 1, outOfSetRate: 0.01 }]);
    expect(canary?.refund.byModel).to.deep.equal([
      { value: 'acme-chat-4', checks: 100, outOfSet: 2, outOfSetRate: 0.02 },
      { value: 'nova-large-1', checks: 50, outOfSet: 2, outOfSetRate: 0.04 },
    ]);
    expect(canary?.refund.byDefinition).to.deep.equal([{ value: 'aaa', checks: 150, outOfSet: 4, outOfSetRate: 4 / 150 }]);
  }); // prettier-ignore
});
