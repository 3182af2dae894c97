import { expect } from 'chai';
import { functionValueSet, httpValueSet, staticValueSet } from '../../src/index.js';
import { sameSource } from '../../src/sources/source-identity.js';

describe('sameSource: when a source made again stands for the same list', () => {
  const url = 'http://127.0.0.1:9/codes';
  const select = (body: unknown) => body;

  it('is true for httpValueSet made from the same URL, headers (any order and case), maxBytes and select', () => {
    const a = httpValueSet(url, {
      headers: { 'X-Tenant': 't1', authorization: 'Bearer a' },
      select,
    });
    const b = httpValueSet(new URL(url), {
      headers: { Authorization: 'Bearer a', 'x-tenant': 't1' },
      select,
    });
    expect(sameSource(a, b)).to.equal(true);
  });

  it('is false for httpValueSet when the URL, a header value, maxBytes or the select function differs', () => {
    const base = httpValueSet(url, { headers: { authorization: 'Bearer a' }, select });
    for (const other of [
      httpValueSet(`${url}?v=2`, { headers: { authorization: 'Bearer a' }, select }),
      httpValueSet(url, { headers: { authorization: 'Bearer b' }, select }),
      httpValueSet(url, { headers: { authorization: 'Bearer a' }, select, maxBytes: 1024 }),
      httpValueSet(url, { headers: { authorization: 'Bearer a' }, select: (b: unknown) => b }),
      httpValueSet(url, { headers: { authorization: 'Bearer a' } }),
    ]) {
      expect(sameSource(base, other)).to.equal(false);
    }
  });

  it('compares staticValueSet members in order', () => {
    expect(sameSource(staticValueSet(['A', 'B']), staticValueSet(['A', 'B']))).to.equal(true);
    expect(sameSource(staticValueSet(['A', 'B']), staticValueSet(['B', 'A']))).to.equal(false);
    expect(sameSource(staticValueSet(['A']), staticValueSet(['A', 'B']))).to.equal(false);
  });

  it('holds a functionValueSet, or a hand-written source, the same only as itself', () => {
    const load = () => ['A'];
    const f = functionValueSet(load);
    expect(sameSource(f, f)).to.equal(true);
    expect(sameSource(f, functionValueSet(load))).to.equal(false);
    const hand = { kind: 'function' as const, load: () => Promise.resolve([]) };
    expect(sameSource(hand, { ...hand })).to.equal(false);
    expect(sameSource(staticValueSet(['A']), httpValueSet(url))).to.equal(false);
  });
});
