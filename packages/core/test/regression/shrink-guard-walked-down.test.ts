// Issue 21, item 13: the shrink guard compared a refresh only with the set
// served last, so 1,000 members became 7 in eight steps of under 50 % each.
// It now compares with the largest set served since the last shrink it let
// through; a shrink that persists (refused three times in a row, over at
// least a TTL) is the owner's real set and is accepted.
import { expect } from 'chai';
import { harness, SET } from '../helpers/provider-harness.js';
import { recordFigure } from '@argcheck/testing/figures';

const members = (n: number) =>
  Array.from({ length: n }, (_, i) => `M${String(i).padStart(4, '0')}`);
const size = (h: ReturnType<typeof harness>) => h.provider.status()[0]?.size;

describe('regression: the shrink guard could be walked down', () => {
  it('1,000 members cannot become 7 through refreshes that each lose under half', async () => {
    const h = harness();
    h.owner.serves(members(1_000));
    await h.provider.ready();
    const sizes: (number | undefined)[] = [];
    const offered: number[] = [];
    for (let n = 1_000; n > 7; n = Math.max(7, Math.floor(n * 0.6))) {
      offered.push(Math.max(7, Math.floor(n * 0.6)));
      h.owner.serves(members(Math.max(7, Math.floor(n * 0.6))));
      await h.provider.refresh(SET);
      sizes.push(size(h));
    }
    // 600 is within half of 1,000; 360 and every step after are over half below 1,000.
    expect(sizes.every((s) => s !== undefined && s >= 500)).to.equal(true, String(sizes));
    const refused = h.events.filter((e) => e.type === 'refresh_rejected' && e.reason === 'shrunk');
    expect(refused.length).to.be.above(0);
    recordFigure(
      'owner-shrinks-stepwise',
      `the owner’s list 1,000 → ${offered.join(' → ')} over ${offered.length} refreshes: ${[...new Set(sizes)].join(', ')} members served after each; ${refused.length} refused as \`shrunk\``,
    );
    h.provider.close();
  });

  it('a shrink that persists over a TTL is accepted; a brief one is not', async () => {
    const h = harness({ refreshJitter: 0 });
    h.owner.serves(members(1_000));
    await h.provider.ready();
    h.owner.serves(members(100));
    await h.provider.refresh(SET);
    await h.provider.refresh(SET);
    await h.provider.refresh(SET);
    // Three refusals within seconds: still the 1,000 (a truncating owner mid-deploy).
    expect(size(h)).to.equal(1_000);
    // The retries go on with backoff; a TTL after the first refusal the shrink is accepted.
    await h.clock.tick(6 * 60_000);
    expect(size(h)).to.equal(100);
    // And the reference starts again from the set accepted.
    h.owner.serves(members(60));
    await h.provider.refresh(SET);
    expect(size(h)).to.equal(60);
    h.provider.close();
  });
});
