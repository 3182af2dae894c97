// Issue 21, item 12: a normalise-mode copy changed more than the value. For
// callers of the core (and of inst.check): a class instance became a plain
// object, a null-prototype object gained Object.prototype, non-enumerable
// properties and extra array properties were dropped, getters were
// flattened, a frozen object came back unfrozen. The copy now keeps what the
// caller's object was; only the rewritten property differs.
import { expect } from 'chai';
import { createArgumentChecker } from '../../src/index.js';
import { fixedProvider } from '../helpers/fixed-provider.js';
import { recordFigure } from '@argcheck/testing/figures';

const checker = createArgumentChecker({
  valueSets: fixedProvider({ refunds: ['LATE', 'DAMAGED'], bins: ['AMS1', 'BER2'] }),
  checkedArguments: {
    refund_order: { reason_code: 'refunds', 'lines[].bin': 'bins' },
  },
  mode: 'normalise',
});

class RefundRequest {
  constructor(
    public order_id: string,
    public reason_code: string,
    public lines: { bin: string }[] = [],
  ) {}
  describe(): string {
    return `${this.order_id}:${this.reason_code}`;
  }
}

const rewritten = (args: unknown) => {
  const outcome = checker.check('refund_order', args);
  expect(outcome.action).to.equal('call_rewritten');
  return outcome.args as Record<string | symbol, unknown>;
};

describe('regression: a normalise-mode copy changed more than the value', () => {
  it('a class instance stays an instance of its class, its methods see the member', () => {
    const sent = rewritten(new RefundRequest('o-1', 'late')) as unknown as RefundRequest;
    expect(sent).to.be.instanceOf(RefundRequest);
    expect(sent.describe()).to.equal('o-1:LATE');
  });

  it('a null-prototype object keeps its null prototype', () => {
    const args = Object.assign(Object.create(null) as object, { reason_code: 'late' });
    const sent = rewritten(args);
    expect(Object.getPrototypeOf(sent)).to.equal(null);
    expect(sent.reason_code).to.equal('LATE');
  });

  it('non-enumerable and symbol properties, getters and setters are carried as they were', () => {
    const tag = Symbol('trace');
    let reads = 0;
    const args: Record<string | symbol, unknown> = { reason_code: 'late', [tag]: 't-1' };
    Object.defineProperty(args, 'internal', { value: 42, enumerable: false });
    Object.defineProperty(args, 'order_id', {
      get: () => {
        reads++;
        return 'o-1';
      },
      enumerable: true,
      configurable: true,
    });
    const sent = rewritten(args);
    expect(Object.getOwnPropertyDescriptor(sent, 'internal')).to.deep.equal({
      value: 42,
      writable: false,
      enumerable: false,
      configurable: false,
    });
    expect(sent[tag]).to.equal('t-1');
    expect(typeof Object.getOwnPropertyDescriptor(sent, 'order_id')?.get).to.equal('function');
    const before = reads;
    expect(sent.order_id).to.equal('o-1');
    expect(reads).to.equal(before + 1);
    expect(sent.reason_code).to.equal('LATE');
  });

  it('an array on the path keeps its extra properties and its prototype', () => {
    class Lines extends Array<{ bin: string }> {}
    const lines = Lines.from([{ bin: 'ams1' }, { bin: 'BER2' }]) as Lines & { source?: string };
    lines.source = 'import';
    const sent = rewritten({ reason_code: 'LATE', lines });
    const out = sent.lines as Lines & { source?: string };
    expect(out).to.be.instanceOf(Lines);
    expect(out.source).to.equal('import');
    expect(out.map((l) => l.bin)).to.deep.equal(['AMS1', 'BER2']);
    // The element not rewritten is shared, not copied.
    expect(out[1]).to.equal(lines[1]);
  });

  it('a frozen object comes back frozen, a sealed one sealed, with only the value changed', () => {
    const frozen = rewritten(Object.freeze({ order_id: 'o-1', reason_code: 'late' }));
    expect(Object.isFrozen(frozen)).to.equal(true);
    expect(frozen).to.deep.equal({ order_id: 'o-1', reason_code: 'LATE' });
    const sealed = rewritten(Object.seal({ order_id: 'o-1', reason_code: 'late' }));
    expect([Object.isSealed(sealed), Object.isFrozen(sealed)]).to.deep.equal([true, false]);
  });

  it('every kind of object keeps its prototype, its other properties as defined, and its integrity', () => {
    const withDescriptors: Record<string | symbol, unknown> = { reason_code: 'late' };
    Object.defineProperty(withDescriptors, 'internal', { value: 42, enumerable: false });
    Object.defineProperty(withDescriptors, 'order_id', { get: () => 'o-1', enumerable: true });
    withDescriptors[Symbol('trace')] = 't-1';
    const kinds: [string, object][] = [
      ['a class instance', new RefundRequest('o-1', 'late')],
      [
        'a null-prototype object',
        Object.assign(Object.create(null) as object, { reason_code: 'late' }),
      ],
      ['non-enumerable, symbol and accessor properties', withDescriptors],
      ['a frozen object', Object.freeze({ order_id: 'o-1', reason_code: 'late' })],
      ['a sealed object', Object.seal({ order_id: 'o-1', reason_code: 'late' })],
      [
        'a non-extensible object',
        Object.preventExtensions({ order_id: 'o-1', reason_code: 'late' }),
      ],
    ];
    const shape = (o: object) => ({
      prototype: Object.getPrototypeOf(o) as unknown,
      properties: Reflect.ownKeys(o)
        .filter((k) => k !== 'reason_code')
        .map((k) => [k, Object.getOwnPropertyDescriptor(o, k)]),
      integrity: [Object.isFrozen(o), Object.isSealed(o), Object.isExtensible(o)],
    });
    const kept = kinds.filter(([what, args]) => {
      const sent = rewritten(args);
      expect(shape(sent), what).to.deep.equal(shape(args));
      expect(sent.reason_code, what).to.equal('LATE');
      return true;
    });
    recordFigure(
      'normalise-copy',
      `${kept.length} of ${kinds.length} kinds (${kinds.map(([what]) => what).join('; ')}) rewritten with the prototype, every other own property’s descriptor and the integrity level kept; only \`reason_code\` differs`,
    );
  });

  it('the caller’s object is untouched', () => {
    const args = new RefundRequest('o-1', 'late', [{ bin: 'ams1' }]);
    rewritten(args);
    expect(args.reason_code).to.equal('late');
    expect(args.lines[0]?.bin).to.equal('ams1');
  });
});
