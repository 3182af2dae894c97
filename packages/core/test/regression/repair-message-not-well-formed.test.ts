// Issue 11, item 7: clip() could cut a surrogate pair in half, leaving a lone
// surrogate in the text sent to the model, and U+2028, U+202E and other
// control or bidi characters from owner values and MCP server and tool names
// reached the repair message raw.
import { expect } from 'chai';
import fc from 'fast-check';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import { providerOf } from '../helpers/counting-set.js';
import { recordFigure } from '@argcheck/testing/figures';

/** Well-formed UTF-16 (`String.prototype.isWellFormed` is not on Node 20). */
function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/** A C0 or C1 control, DEL, a line or paragraph separator, or a bidi control, raw. */
function hasRawControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      c <= 0x1f ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x2028 ||
      c === 0x2029 ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069) ||
      c === 0x200e ||
      c === 0x200f ||
      c === 0x061c
    ) {
      return true;
    }
  }
  return false;
}

const rejectingChecker = (
  tool: string,
  members: readonly string[],
  options: { maxRepairMessageLength?: number; listAllUpTo?: number } = {},
) =>
  createArgumentChecker({
    valueSets: providerOf({ owner: compileValueSet(members.map((value) => ({ value }))) }),
    checkedArguments: { [tool]: { code: 'owner' } },
    mode: 'reject',
    ...options,
  });

describe('regression: repair messages that are not well-formed text', () => {
  it('does not cut a surrogate pair in half when it clips', () => {
    const tool = '\u{1F600}'.repeat(60);
    const message = rejectingChecker(tool, ['LATE'], { maxRepairMessageLength: 80 }).check(tool, {
      code: 'NOPE',
    }).repairMessage!;
    expect([isWellFormed(message), message.length <= 80]).to.deep.equal([true, true]);
  });

  it('escapes line separators and bidi overrides from members and tool names', () => {
    const tool = 'files\u202Eexe.txt';
    const message = rejectingChecker(tool, ['A\u2028B', 'C\u2066D\u2069', 'E\u0085F']).check(tool, {
      code: 'G\u202AH',
    }).repairMessage!;
    expect(message).to.equal(
      'files\\u202eexe.txt was not called: an argument is not a legal value. ' +
        '"code" must be one of: "A\\u2028B", "C\\u2066D\\u2069", "E\\u0085F" (got "G\\u202aH"). ' +
        'Call the tool again using only the listed values.',
    );
  });

  it('is well-formed, escapes controls, and keeps within its bound, for any text', () => {
    const special = fc.constantFrom(
      '\u2028',
      '\u2029',
      '\u202E',
      '\u2066',
      '\u0000',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u061c',
      '\uD800',
      '\uDFFF',
      '\u{1F600}',
      '"',
      '\\',
    );
    const unit = fc.oneof(
      special,
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    const text = fc.string({ unit, maxLength: 40 });
    let messages = 0;
    fc.assert(
      fc.property(
        fc.string({ unit, minLength: 1, maxLength: 30 }),
        fc.uniqueArray(text, { minLength: 1, maxLength: 30 }),
        fc.oneof(text, fc.jsonValue()),
        fc.integer({ min: 80, max: 600 }),
        fc.integer({ min: 0, max: 30 }),
        (tool, members, value, maxRepairMessageLength, listAllUpTo) => {
          const outcome = rejectingChecker(tool, members, {
            maxRepairMessageLength,
            listAllUpTo,
          }).check(tool, { code: value });
          if (outcome.action !== 'reject') return;
          messages += 1;
          const message = outcome.repairMessage!;
          expect(isWellFormed(message), message).to.equal(true);
          expect(hasRawControl(message), message).to.equal(false);
          expect(message.length).to.be.at.most(maxRepairMessageLength);
        },
      ),
      { numRuns: 500 },
    );
    recordFigure(
      'repair-well-formed',
      `${messages} repair messages from generated tool names, members and values (fast-check, 500 runs): every one well-formed, without a raw control or separator, within its bound (80 to 600 characters)`,
    );
  });
});
