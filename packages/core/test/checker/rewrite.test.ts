import { expect } from 'chai';
import { applyRewrites } from '../../src/checker/rewrite.js';
import { deepFreeze } from '../helpers/fixed-provider.js';

describe('applyRewrites', () => {
  it('copies only the containers on rewritten paths', () => {
    const untouched = { keep: true };
    const input = deepFreeze({
      items: [{ code: 'ams1' }, { code: 'AMS2' }, { code: 'ber1' }],
      meta: untouched,
    });
    const out = applyRewrites(input, [
      { location: ['items', 0, 'code'], value: 'AMS1' },
      { location: ['items', 2, 'code'], value: 'BER1' },
    ]) as typeof input;
    expect(out).to.deep.equal({
      items: [{ code: 'AMS1' }, { code: 'AMS2' }, { code: 'BER1' }],
      meta: { keep: true },
    });
    expect(input.items[0]?.code).to.equal('ams1');
    expect(out.meta).to.equal(untouched);
    expect(out.items[1]).to.equal(input.items[1]);
  });

  it('writes a key named __proto__ as an own property, leaving prototypes alone', () => {
    const input = JSON.parse('{"__proto__": "late"}') as Record<string, unknown>;
    const out = applyRewrites(input, [{ location: ['__proto__'], value: 'LATE' }]) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(out)).to.equal(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).to.equal('LATE');
    expect(({} as Record<string, unknown>).LATE).to.equal(undefined);
  });
});
