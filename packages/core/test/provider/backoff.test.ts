import { expect } from 'chai';
import { retryDelayMs } from '../../src/provider/backoff.js';

describe('retryDelayMs', () => {
  it('doubles from 1 s, caps at 60 s, and keeps half the delay fixed', () => {
    const delays = (random: number): number[] =>
      Array.from({ length: 9 }, (_, i) => retryDelayMs(i + 1, 300_000, random));
    expect(delays(0)).to.deep.equal([
      500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(delays(0.5)).to.deep.equal([
      750, 1_500, 3_000, 6_000, 12_000, 24_000, 45_000, 45_000, 45_000,
    ]);
    expect(delays(0.999)).to.deep.equal([
      1_000, 1_999, 3_998, 7_996, 15_992, 31_984, 59_970, 59_970, 59_970,
    ]);
  });

  it('never waits longer than the TTL', () => {
    expect([1, 2, 3, 10].map((n) => retryDelayMs(n, 1_500, 0.999))).to.deep.equal([
      1_000, 1_499, 1_499, 1_499,
    ]);
  });

  it('stays finite after very many failures', () => {
    expect(retryDelayMs(10_000, 300_000, 0.5)).to.equal(45_000);
  });
});
