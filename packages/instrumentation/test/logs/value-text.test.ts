import { expect } from 'chai';
import { truncate, valueText } from '../../src/logs/value-text.js';

describe('value text', () => {
  it('is the string itself, or JSON text for anything else', () => {
    expect(valueText('LATE')).to.equal('LATE');
    expect(valueText(42)).to.equal('42');
    expect(valueText(null)).to.equal('null');
    expect(valueText(['a', 1])).to.equal('["a",1]');
    expect(valueText(undefined)).to.equal('undefined');
    expect(valueText(10n)).to.equal('10');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(valueText(cycle)).to.equal('[object Object]');
  });

  it('truncates in code units and never splits a surrogate pair', () => {
    expect(truncate('abc', 3)).to.deep.equal({ text: 'abc', truncated: false });
    expect(truncate('abcd', 3)).to.deep.equal({ text: 'abc', truncated: true });
    expect(truncate('ab\u{1F600}', 3)).to.deep.equal({ text: 'ab', truncated: true });
  });
});
