import { expect } from 'chai';
import { MAX_NAME_LENGTH, safeName } from '../../src/telemetry/safe-name.js';

/** No lone surrogate (String.prototype.isWellFormed, outside the compiled lib). */
const wellFormed = (s: string): boolean =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

const SAFE =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]*$/u;

describe('safeName: names from catalogs as attribute values', () => {
  it('keeps a safe name of up to 128 characters as it is, non-ASCII letters and emoji included', () => {
    for (const name of [
      'refund_order',
      'mcp:shop/refund_order.reason_code',
      'Rückerstattung',
      '退款',
      'tool 🚀',
      'x'.repeat(128),
    ]) {
      expect(safeName(name)).to.equal(name);
    }
  });

  it('marks a name with controls, bidi overrides or lone surrogates: printable, bounded, its hash appended', () => {
    const hostile = 'refund\u001b]0;OWNED\u0007\u001b[2K\r\ud800';
    const shown = safeName(hostile);
    expect(shown).to.match(/^refund\?\]0;OWNED\?\?\[2K\?\?~[0-9a-f]{12}$/);
    expect(shown).to.match(SAFE);
    expect(wellFormed(shown)).to.equal(true);
    for (const name of [
      'shop\u001b[31m',
      'a\u202eb',
      'a\u0085b',
      'a\u009bb',
      'a\u2066b',
      'a\u2028b',
      '\ufeffa',
      'a\udc00',
    ]) {
      expect(safeName(name)).to.match(SAFE);
      expect(wellFormed(safeName(name))).to.equal(true);
      expect(safeName(name)).not.to.equal(name);
    }
  });

  it('bounds a long name to 128 characters, without splitting a surrogate pair', () => {
    const long = `${'a'.repeat(114)}😀${'b'.repeat(1_000)}`;
    const shown = safeName(long);
    expect(shown.length).to.be.at.most(MAX_NAME_LENGTH);
    expect(wellFormed(shown)).to.equal(true);
    expect(shown).to.match(/^a{114}~[0-9a-f]{12}$/);
  });

  it('never maps two different names to one value, nor a raw name onto another’s mark', () => {
    const names = [
      'refund\u001b',
      'refund\u0007',
      'refund?',
      'refund\ud800',
      'refund\udbff',
      `${'x'.repeat(200)}1`,
      `${'x'.repeat(200)}2`,
    ];
    const shown = names.map(safeName);
    expect(new Set(shown).size).to.equal(names.length);
    const posing = safeName('refund\u001b');
    // The mark text itself, written as a raw name, is marked again.
    expect(safeName(posing)).not.to.equal(posing);
    expect(safeName('refund?')).to.equal('refund?');
  });

  it('is a function of the name alone', () => {
    expect(safeName('shop\u001b[31m')).to.equal(safeName('shop\u001b[31m'));
  });
});
