import { expect } from 'chai';
import { emptyTallies } from '../../src/demo/run-scenario.js';
import { createStoryRecorder } from '../../src/demo/story-recorder.js';
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
        },
        unavailable: 4,
        createTicket: { planned: 5, succeeded: 5 },
        maxAgeSeconds: { 'identity.active_handles': 9 },
      },
    ]);
  });
});
