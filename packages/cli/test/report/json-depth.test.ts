import { expect } from 'chai';
import { jsonCost } from '../../src/report/json-depth.js';

/** Nesting only: no bound on how many containers. */
const tooDeep = (text: string, maxDepth: number): boolean =>
  jsonCost(text, maxDepth, Infinity) === 'too_deep';

describe('jsonCost', () => {
  it('counts objects and arrays opened inside one another, not one after another', () => {
    expect(tooDeep('{"a":[{"b":[1]}]}', 4)).to.equal(false);
    expect(tooDeep('{"a":[{"b":[1]}]}', 3)).to.equal(true);
    expect(tooDeep('[[],[],[],[],[]]', 2)).to.equal(false);
    expect(tooDeep('"text"', 0)).to.equal(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(tooDeep('{"v":"[[[[{{{{"}', 1)).to.equal(false);
    expect(tooDeep('{"v":"\\"[[[["}', 1)).to.equal(false);
    // An escaped backslash ends in a real quote: the brackets after it count.
    expect(tooDeep('{"v":"\\\\",[[["x"]]]}', 2)).to.equal(true);
    expect(tooDeep('{"v":"\\\\\\"[[["}', 1)).to.equal(false);
  });

  it('answers false for an unterminated string: JSON.parse says what is wrong', () => {
    expect(tooDeep('{"v":"[[[[', 1)).to.equal(false);
  });

  it('counts every object and array a line opens, nested or not, and stops at the first past the bound', () => {
    expect(jsonCost('[[],[],[],[]]', 64, 5)).to.equal(undefined);
    expect(jsonCost('[[],[],[],[],[]]', 64, 5)).to.equal('too_many_containers');
    expect(jsonCost('{"v":"{}{}{}{}{}{}"}', 64, 1)).to.equal(undefined);
  });
});
