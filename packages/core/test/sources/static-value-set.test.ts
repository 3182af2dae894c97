import { expect } from 'chai';
import { ArgcheckConfigError, ErrorCode, staticValueSet } from '../../src/index.js';

const never = new AbortController().signal;

describe('staticValueSet', () => {
  it('is reported as kind static and loads its values as entries', async () => {
    const source = staticValueSet(['EUR', 'USD']);
    expect(source.kind).to.equal('static');
    expect(await source.load({ signal: never })).to.deep.equal([
      { value: 'EUR' },
      { value: 'USD' },
    ]);
  });

  it('copies the values at construction', async () => {
    const values = ['EUR'];
    const source = staticValueSet(values);
    values.push('GBP');
    expect(await source.load({ signal: never })).to.deep.equal([{ value: 'EUR' }]);
  });

  const invalid: [string, unknown][] = [
    ['a non-array', 'EUR,USD'],
    ['undefined', undefined],
    ['an empty array', []],
    ['a non-string member', ['EUR', 978]],
    ['an entry object', [{ value: 'EUR' }]],
  ];
  for (const [title, values] of invalid) {
    it(`rejects ${title} with INVALID_SOURCE`, () => {
      try {
        staticValueSet(values as string[]);
        expect.fail('expected a configuration error');
      } catch (error) {
        expect(error).to.be.instanceOf(ArgcheckConfigError);
        expect((error as ArgcheckConfigError).code).to.equal(ErrorCode.INVALID_SOURCE);
      }
    });
  }
});
