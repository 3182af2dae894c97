import { expect } from 'chai';
import { createSampler } from '../../src/logs/sampler.js';
import { seededRandom } from '@argcheck/testing/random';

describe('log sampler', () => {
  it('samples 1 in 50 over 100,000 checks within 5 standard deviations, for several seeds', () => {
    const n = 100_000;
    const p = 1 / 50;
    const sigma = Math.sqrt(n * p * (1 - p)); // ≈ 44.3
    for (const seed of [1, 42, 2024]) {
      const sampler = createSampler(p, seededRandom(seed));
      let sampled = 0;
      for (let i = 0; i < n; i++) if (sampler.sample()) sampled++;
      expect(Math.abs(sampled - n * p), `seed ${seed}: ${sampled}`).to.be.below(5 * sigma);
    }
  });

  it('draws randomness once per sampled call, not once per call', () => {
    const random = seededRandom(7);
    let draws = 0;
    const sampler = createSampler(1 / 50, () => {
      draws++;
      return random();
    });
    let sampled = 0;
    for (let i = 0; i < 100_000; i++) if (sampler.sample()) sampled++;
    expect(draws).to.equal(sampled + 1);
  });

  it('spaces samples geometrically: gaps have the mean (1 - p) / p', () => {
    const p = 1 / 50;
    const sampler = createSampler(p, seededRandom(3));
    const gaps: number[] = [];
    let gap = 0;
    for (let i = 0; i < 1_000_000; i++) {
      if (sampler.sample()) {
        gaps.push(gap);
        gap = 0;
      } else gap++;
    }
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    const sd = Math.sqrt(1 - p) / p / Math.sqrt(gaps.length);
    expect(Math.abs(mean - (1 - p) / p)).to.be.below(5 * sd);
  });

  it('never samples at 0 and always samples at 1, without drawing', () => {
    const random = (): number => {
      throw new Error('must not draw');
    };
    const never = createSampler(0, random);
    const always = createSampler(1, random);
    for (let i = 0; i < 100; i++) {
      expect(never.sample()).to.equal(false);
      expect(always.sample()).to.equal(true);
    }
  });

  it('falls back to every 1/p-th call when the random source throws or returns nonsense', () => {
    for (const random of [
      () => {
        throw new Error('broken');
      },
      () => Number.NaN,
      () => 1,
    ]) {
      const sampler = createSampler(1 / 10, random);
      let sampled = 0;
      for (let i = 0; i < 1_000; i++) if (sampler.sample()) sampled++;
      expect(sampled).to.equal(100);
    }
  });
});
