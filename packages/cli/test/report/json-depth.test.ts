import { expect } from 'chai';
import { exceedsJsonDepth } from '../../src/report/json-depth.js';

describe('exceedsJsonDepth', () => {
  it('counts objects and arrays opened inside one another, not one after another', () => {
    expect(exceedsJsonDepth('{"a":[{"b":[1]}]}', 4)).to.equal(false);
    expect(exceedsJsonDepth('{"a":[{"b":[1]}]}', 3)).to.equal(true);
    expect(exceedsJsonDepth('[[],[],[],[],[]]', 2)).to.equal(false);
    expect(exceedsJsonDepth('"text"', 0)).to.equal(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth('{"v":"[[[[{{{{"}', 1)).to.equal(false);
    expect(exceedsJsonDepth('{"v":"\\"[[[["}', 1)).to.equal(false);
    // An escaped backslash ends in a real quote: the brackets after it count.
    expect(exceedsJsonDepth('{"v":"\\\\",[[["x"]]]}', 2)).to.equal(true);
    expect(exceedsJsonDepth('{"v":"\\\\\\"[[["}', 1)).to.equal(false);
  });

  it('answers false for an unterminated string: JSON.parse says what is wrong', () => {
    expect(exceedsJsonDepth('{"v":"[[[[', 1)).to.equal(false);
  });
});
