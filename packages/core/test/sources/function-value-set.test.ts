import { expect } from 'chai';
import { ArgcheckConfigError, ErrorCode, functionValueSet } from '../../src/index.js';
import { ValueSetPayloadError } from '../../src/sources/payload-error.js';
import type { FetchContext } from '../../src/types.js';

describe('functionValueSet', () => {
  it('accepts a payload returned directly', async () => {
    const source = functionValueSet(() => ['LATE', 'OTHER']);
    expect(source.kind).to.equal('function');
    const signal = new AbortController().signal;
    expect(await source.load({ signal })).to.deep.equal([{ value: 'LATE' }, { value: 'OTHER' }]);
  });

  it('accepts a promise of a payload, and passes the fetch context through', async () => {
    const seen: FetchContext[] = [];
    const source = functionValueSet((ctx) => {
      seen.push(ctx);
      return Promise.resolve({ values: [{ value: 'LATE', aliases: ['Late delivery'] }] });
    });
    const ctx = { signal: new AbortController().signal };
    expect(await source.load(ctx)).to.deep.equal([{ value: 'LATE', aliases: ['Late delivery'] }]);
    expect(seen).to.deep.equal([ctx]);
  });

  it('passes a version on with the list, and { unchanged: true } through', async () => {
    const source = functionValueSet(({ version }) =>
      version === 'r7' ? { unchanged: true } : { values: ['LATE'], version: 'r7' },
    );
    const signal = new AbortController().signal;
    expect(await source.load({ signal })).to.deep.equal({
      values: [{ value: 'LATE' }],
      version: 'r7',
    });
    expect(await source.load({ signal, version: 'r7' })).to.deep.equal({ unchanged: true });
  });

  it('takes a numeric version as a string, and ignores one of any other type', async () => {
    const signal = new AbortController().signal;
    expect(
      await functionValueSet(() => ({ values: ['LATE'], version: 12 })).load({ signal }),
    ).to.deep.equal({
      values: [{ value: 'LATE' }],
      version: '12',
    });
    expect(
      await functionValueSet(() => ({ values: ['LATE'], version: { at: 1 } })).load({ signal }),
    ).to.deep.equal([{ value: 'LATE' }]);
  });

  it('turns a synchronous throw into a rejection', async () => {
    const source = functionValueSet(() => {
      throw new Error('db down');
    });
    const loading = source.load({ signal: new AbortController().signal });
    expect(loading).to.be.instanceOf(Promise);
    await loading.then(
      () => expect.fail('expected a rejection'),
      (error: Error) => expect(error.message).to.equal('db down'),
    );
  });

  it('refuses a payload of the wrong shape as invalid_payload', async () => {
    const source = functionValueSet(() => ({ rows: [] }));
    await source.load({ signal: new AbortController().signal }).then(
      () => expect.fail('expected a rejection'),
      (error: unknown) => {
        expect(error).to.be.instanceOf(ValueSetPayloadError);
        expect((error as ValueSetPayloadError).rejection).to.equal('malformed');
      },
    );
  });

  it('rejects a load that is not a function with INVALID_SOURCE', () => {
    try {
      functionValueSet(['LATE'] as never);
      expect.fail('expected a configuration error');
    } catch (error) {
      expect(error).to.be.instanceOf(ArgcheckConfigError);
      expect((error as ArgcheckConfigError).code).to.equal(ErrorCode.INVALID_SOURCE);
    }
  });
});
