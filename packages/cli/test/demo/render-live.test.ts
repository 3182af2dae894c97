import { expect } from 'chai';
import type { LiveFrame } from '../../src/demo/render/live-frame.js';
import { renderFrame, renderOneLine } from '../../src/demo/render/render-live.js';
import { argumentCounts } from '../../src/demo/telemetry/argument-figures.js';
import { refundSnapshot } from '../helpers/snapshots.js';

function frame(showRewritten: boolean): LiveFrame {
  const where = { tool: 'refund_order', argument: 'reason_code' };
  const now = refundSnapshot(30_000, { members: 1_880, caseSlips: 34, invented: 86 });
  const before = refundSnapshot(25_000, { members: 1_500, caseSlips: 30, invented: 70 });
  return {
    title: 'argcheck demo',
    progress: 0.5,
    elapsedMs: 30_000,
    durationMs: 60_000,
    phaseLabel: 'model provider migrated',
    tools: [{ tool: 'refund_order', calls: 2_000, repairs: 3 }],
    rows: [
      { ...where, total: argumentCounts(now, where), window: argumentCounts(now, where, before) },
    ],
    showRewritten,
    valueSets: [
      { name: 'refunds.reason_codes', state: 'fresh', size: 6, ageSeconds: 1.25, owner: '200×4' },
      { name: 'identity.active_handles', state: 'unavailable', size: 0, owner: '200×1 503×6' },
    ],
  };
}

describe('demo live display', () => {
  it('renders the progress bar, the table and the value sets', () => {
    expect(renderFrame(frame(false)).join('\n')).to.equal(
      `argcheck demo
███████████████░░░░░░░░░░░░░░░  50 %  30.0 s / 60.0 s  ▸ model provider migrated

tool / argument             calls  out of set      now  normalised       tax  unavailable  repairs
refund_order                2,000                                                                3
  reason_code               2,000       6.0 %    5.0 %       4.3 %   1.7 pts            0

value set                state        members    age  owner answered
refunds.reason_codes     fresh              6  1.3 s  200×4
identity.active_handles  unavailable        0      –  200×1 503×6`,
    );
  });

  it('adds the rewritten column outside observe mode', () => {
    expect(renderFrame(frame(true))[3]).to.equal(
      'tool / argument             calls  out of set      now  normalised       tax  unavailable  rewritten  repairs',
    );
  });

  it('renders one short plain line per tick: the headline argument and the checks that could not run', () => {
    expect(renderOneLine(frame(false))).to.equal(
      ' 50 %   30.0 s  reason_code out of set 5.0 % now, 6.0 % overall · 0 checks unavailable',
    );
  });

  it('keeps the plain line under 100 characters at the longest a run can make it', () => {
    const longest = frame(false);
    const counts = { ...longest.rows[0]!.total, checks: 1, outOfSet: 1, unavailable: 9_999_999 };
    longest.progress = 1;
    longest.elapsedMs = 3_600_000;
    longest.rows = [
      { tool: 'refund_order', argument: 'reason_code', total: counts, window: counts },
    ];
    const line = renderOneLine(longest);
    expect(line).to.equal(
      '100 % 3600.0 s  reason_code out of set 100.0 % now, 100.0 % overall · 9,999,999 checks unavailable',
    );
    expect(line.length).to.be.below(100);
  });
});
