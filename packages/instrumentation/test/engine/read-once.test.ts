import { expect } from 'chai';
import { readOnce } from '../../src/engine/read-once.js';

describe('readOnce: arguments as they would be serialised, read once', () => {
  it('copies nested objects and arrays, and reads each getter once', () => {
    let reads = 0;
    const args = {
      order_id: 'o-1',
      get reason_code() {
        reads++;
        return reads === 1 ? 'DAMAGED' : 'INVENTED';
      },
      items: [{ sku: 'A-1' }, { sku: 'B-2' }],
      meta: { when: { day: 1 } },
    };
    const copied = readOnce(args) as Record<string, unknown>;
    expect(copied).to.deep.equal({
      order_id: 'o-1',
      reason_code: 'DAMAGED',
      items: [{ sku: 'A-1' }, { sku: 'B-2' }],
      meta: { when: { day: 1 } },
    });
    expect(reads).to.equal(1);
    expect(copied.items).to.not.equal(args.items);
    expect(copied.meta).to.not.equal(args.meta);
  });

  it('keeps a key __proto__ as data, nested objects under it copied', () => {
    const args = JSON.parse('{"__proto__":{"polluted":"yes"},"reason_code":"LATE"}') as object;
    const copied = readOnce(args) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copied)).to.equal(Object.prototype);
    expect(Object.keys(copied)).to.deep.equal(['__proto__', 'reason_code']);
    expect(JSON.stringify(copied)).to.equal(JSON.stringify(args));
  });

  it('leaves out an enumerable key inherited from a patched Object.prototype, as JSON.stringify does', () => {
    Object.defineProperty(Object.prototype, 'argcheckInherited', {
      value: { nested: true },
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      const args = { reason_code: 'LATE', nested: { a: 1 } };
      const copied = readOnce(args) as Record<string, unknown>;
      expect(Object.keys(copied)).to.deep.equal(['reason_code', 'nested']);
      expect(Object.hasOwn(copied, 'argcheckInherited')).to.equal(false);
      expect(JSON.stringify(copied)).to.equal(JSON.stringify(args));
    } finally {
      delete (Object.prototype as Record<string, unknown>).argcheckInherited;
    }
  });

  it('applies toJSON with the key it would get, once', () => {
    const keys: string[] = [];
    const when = { toJSON: (key: string) => (keys.push(key), '2026-12-07') };
    expect(readOnce({ when })).to.deep.equal({ when: '2026-12-07' });
    expect(keys).to.deep.equal(['when']);
  });
});
