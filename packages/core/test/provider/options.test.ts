import { expect } from 'chai';
import { ArgcheckConfigError, createValueSetProvider, ErrorCode } from '../../src/index.js';
import type { ValueSetProviderOptions } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { FakeOwner } from '../helpers/fake-owner.js';

function codeOf(options: unknown): string | undefined {
  try {
    createValueSetProvider(options as ValueSetProviderOptions).close();
    return undefined;
  } catch (error) {
    expect(error).to.be.instanceOf(ArgcheckConfigError);
    return (error as ArgcheckConfigError).code;
  }
}

const sources = { refund_reason: new FakeOwner(['LATE']).source() };
const clock = new ManualClock();

describe('provider options', () => {
  const invalidOptions: [string, unknown][] = [
    ['no options object', undefined],
    ['sources that are not an object', { sources: [] }],
    ['a zero ttlMs', { sources, ttlMs: 0 }],
    ['a negative ttlMs', { sources, ttlMs: -5 }],
    ['a NaN ttlMs', { sources, ttlMs: Number.NaN }],
    ['a string ttlMs', { sources, ttlMs: '300000' }],
    ['a ttlMs over the timer limit', { sources, ttlMs: 2 ** 31 }],
    ['an infinite fetchTimeoutMs', { sources, fetchTimeoutMs: Infinity }],
    ['a zero fetchTimeoutMs', { sources, fetchTimeoutMs: 0 }],
    ['a negative maxStaleMs', { sources, maxStaleMs: -1 }],
    ['a maxShrinkRatio above 1', { sources, maxShrinkRatio: 1.5 }],
    ['a negative maxShrinkRatio', { sources, maxShrinkRatio: -0.1 }],
    ['a NaN maxShrinkRatio', { sources, maxShrinkRatio: Number.NaN }],
    ['a refreshJitter above 0.5', { sources, refreshJitter: 0.6 }],
    ['a negative refreshJitter', { sources, refreshJitter: -0.1 }],
    ['a NaN refreshJitter', { sources, refreshJitter: Number.NaN }],
    ['a string refreshJitter', { sources, refreshJitter: '0.1' }],
    ['a clock without setTimeout', { sources, clock: { now: () => 0, clearTimeout: () => {} } }],
    ['a clock whose now is not a function', { sources, clock: { ...clock, now: 5 } }],
    ['a random that is not a function', { sources, random: 0.5 }],
    ['an onEvent that is not a function', { sources, onEvent: 'log' }],
  ];
  for (const [title, options] of invalidOptions) {
    it(`rejects ${title} with INVALID_OPTION`, () => {
      expect(codeOf(options)).to.equal(ErrorCode.INVALID_OPTION);
    });
  }

  const invalidSources: [string, unknown][] = [
    ['a source without load', { kind: 'http' }],
    ['a null source', null],
    ['a source whose load is not a function', { kind: 'function', load: 'fetch' }],
    ['a source of unknown kind', { kind: 'ftp', load: () => Promise.resolve([]) }],
  ];
  for (const [title, source] of invalidSources) {
    it(`rejects ${title} with INVALID_SOURCE`, () => {
      expect(codeOf({ sources: { refund_reason: source } })).to.equal(ErrorCode.INVALID_SOURCE);
    });
  }

  it('says what range refreshJitter takes', () => {
    expect(() => createValueSetProvider({ sources, refreshJitter: 1 })).to.throw(
      'createValueSetProvider: refreshJitter must be a number from 0 to 0.5, got 1',
    );
  });

  it('names the set and says what to do in the message', () => {
    expect(() => createValueSetProvider({ sources: { refund_reason: {} as never } })).to.throw(
      'sources.refund_reason has no load(ctx) function; build it with httpValueSet, functionValueSet or staticValueSet',
    );
  });

  it('accepts the edges of each range', () => {
    expect(codeOf({ sources, clock, ttlMs: 1, fetchTimeoutMs: 1, maxStaleMs: 0 })).to.equal(
      undefined,
    );
    expect(codeOf({ sources, clock, maxShrinkRatio: 0 })).to.equal(undefined);
    expect(codeOf({ sources, clock, maxShrinkRatio: 1 })).to.equal(undefined);
    expect(codeOf({ sources, clock, refreshJitter: 0 })).to.equal(undefined);
    expect(codeOf({ sources, clock, refreshJitter: 0.5 })).to.equal(undefined);
    expect(codeOf({ sources: {} })).to.equal(undefined);
  });
});
