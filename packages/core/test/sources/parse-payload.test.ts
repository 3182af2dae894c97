import { expect } from 'chai';
import {
  parseValueSetPayload,
  parseValueSetPayloadInTurns,
} from '../../src/sources/parse-payload.js';
import { asPayloadError, ValueSetPayloadError } from '../../src/sources/payload-error.js';

const EXPECTED =
  'expected a JSON array of strings or of { value, aliases? } entries, or an object { values: [...] }';

function refusal(payload: unknown): unknown {
  try {
    parseValueSetPayload(payload);
  } catch (error) {
    expect(error).to.be.instanceOf(ValueSetPayloadError);
    const e = error as ValueSetPayloadError;
    return { reason: e.reason, rejection: e.rejection, detail: e.detail };
  }
  throw new Error('expected the payload to be refused');
}

describe('parseValueSetPayload', () => {
  it('reads an array of strings', () => {
    expect(parseValueSetPayload(['LATE', 'OTHER'])).to.deep.equal([
      { value: 'LATE' },
      { value: 'OTHER' },
    ]);
  });

  it('reads { values: [...] }', () => {
    expect(parseValueSetPayload({ values: ['LATE'], etag: 'x' })).to.deep.equal([
      { value: 'LATE' },
    ]);
  });

  it('reads entries with aliases, alone, wrapped, or mixed with strings', () => {
    const entries = [{ value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] }, 'LATE'];
    const expected = [{ value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] }, { value: 'LATE' }];
    expect(parseValueSetPayload(entries)).to.deep.equal(expected);
    expect(parseValueSetPayload({ values: entries })).to.deep.equal(expected);
  });

  it('copies aliases, so later changes to the payload do not reach the set', () => {
    const aliases = ['Charged twice'];
    const [entry] = parseValueSetPayload([{ value: 'DUPLICATE_CHARGE', aliases }]);
    aliases.push('Double charge');
    expect(entry).to.deep.equal({ value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] });
  });

  it('parses an empty list (refusing it is the provider’s call)', () => {
    expect(parseValueSetPayload([])).to.deep.equal([]);
    expect(parseValueSetPayload({ values: [] })).to.deep.equal([]);
  });

  const refused: [string, unknown, string][] = [
    ['null', null, `got null; ${EXPECTED}`],
    ['a number', 42, `got a number; ${EXPECTED}`],
    ['a string', '["LATE"]', `got a string; ${EXPECTED}`],
    ['an empty object', {}, `got an object without "values"; ${EXPECTED}`],
    [
      'an object without values',
      { codes: [], a: 1, b: 2, c: 3, d: 4, e: 5 },
      `got an object without "values"; ${EXPECTED}`,
    ],
    ['values that is not an array', { values: 'LATE' }, `"values" is a string; ${EXPECTED}`],
    [
      'a number among the strings',
      ['LATE', 7],
      'element 1 is a number; expected a string or { value: string, aliases?: string[] }',
    ],
    [
      'an entry without a string value',
      [{ code: 'LATE' }],
      'element 0 is an object without a string "value"; expected a string or { value: string, aliases?: string[] }',
    ],
    [
      'aliases that are not strings',
      [{ value: 'LATE', aliases: ['Late', 3] }],
      'element 0 has "aliases" that is not an array of strings',
    ],
    [
      'aliases that are not an array',
      [{ value: 'LATE', aliases: 'Late' }],
      'element 0 has "aliases" that is not an array of strings',
    ],
  ];
  for (const [title, payload, detail] of refused) {
    it(`refuses ${title}, saying what was wrong`, () => {
      expect(refusal(payload)).to.deep.equal({
        reason: 'invalid_payload',
        rejection: 'malformed',
        detail,
      });
    });
  }

  // Keys are named to help find the list; values are only ever described by type.
  it('never quotes payload values in its detail', () => {
    expect(JSON.stringify(refusal({ token: 's3cr3t' }))).to.not.include('s3cr3t');
    expect(JSON.stringify(refusal(['x', { value: 9_917, note: 's3cr3t' }]))).to.not.include('9917');
    expect(JSON.stringify(refusal(['LATE', 's3cr3t', 4_242]))).to.not.match(/s3cr3t|4242/);
  });
});

describe('asPayloadError', () => {
  it('recognises any error carrying reason invalid_payload', () => {
    expect(asPayloadError(new ValueSetPayloadError('too_large', 'big'))).to.deep.equal({
      rejection: 'too_large',
      detail: 'big',
    });
    expect(asPayloadError({ reason: 'invalid_payload', message: 'bad rows' })).to.deep.equal({
      rejection: 'malformed',
      detail: 'bad rows',
    });
    expect(asPayloadError(new Error('boom'))).to.equal(undefined);
    expect(asPayloadError('invalid_payload')).to.equal(undefined);
  });
});

describe('parseValueSetPayloadInTurns', () => {
  const payloads: unknown[] = [
    ['LATE', { value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] }],
    { values: ['LATE'] },
    [],
    'LATE',
    { values: 'LATE' },
    ['LATE', 7],
    [{ value: 'LATE', aliases: 'late' }],
    Array.from({ length: 50_000 }, (_, i) => (i % 2 ? `code-${i}` : { value: `code-${i}` })),
    [...Array.from({ length: 50_000 }, (_, i) => `code-${i}`), null],
  ];

  async function outcome(parse: () => Promise<unknown>): Promise<unknown> {
    try {
      return { value: await parse() };
    } catch (error) {
      return { error: { ...(error as ValueSetPayloadError), message: (error as Error).message } };
    }
  }

  it('answers, or refuses, exactly as parseValueSetPayload does', async () => {
    for (const payload of payloads) {
      expect(await outcome(() => parseValueSetPayloadInTurns(payload))).to.deep.equal(
        await outcome(() => Promise.resolve().then(() => parseValueSetPayload(payload))),
      );
    }
  });

  it('gives the event loop turns on a large list, and stops when its signal aborts', async () => {
    const controller = new AbortController();
    const large = Array.from({ length: 100_000 }, (_, i) => `code-${i}`);
    const parsing = parseValueSetPayloadInTurns(large, controller.signal);
    await new Promise<void>((resolve) => setImmediate(resolve));
    const reason = new Error('timed out');
    controller.abort(reason);
    expect(await parsing.catch((e: unknown) => e)).to.equal(reason);
  });
});
