import { expect } from 'chai';
import { ABSENT, readFlat } from '../../src/checker/flat-json.js';

/** The quick read of flat JSON texts: what it finds, and every text it leaves to the reader. */
describe('readFlat: the quick read of a flat JSON text', () => {
  const keys = ['reason_code', 'warehouse'];
  const read = (text: string): (string | typeof ABSENT)[] | false => {
    const out: (string | typeof ABSENT)[] = ['stale', 'stale'];
    return readFlat(text, keys, out) ? out : false;
  };

  it('finds each key’s string value, and ABSENT for a key the text lacks', () => {
    expect(read('{"order_id":"o-1","reason_code":"DAMAGED"}')).to.deep.equal(['DAMAGED', ABSENT]);
    expect(read('{"warehouse":"AMS-1","reason_code":"late"}')).to.deep.equal(['late', 'AMS-1']);
    expect(read('{}')).to.deep.equal([ABSENT, ABSENT]);
  });

  it('reads whitespace, nested and non-string values of other keys as JSON allows', () => {
    const text =
      ' {\n\t"items" : [ {"reason_code":"NESTED"}, 1e3, -0.5, true, null ] ,' +
      ' "meta":{"a":{"b":[]}}, "reason_code" : "LATE" }\r\n';
    expect(read(text)).to.deep.equal(['LATE', ABSENT]);
  });

  it('keeps a value’s characters as written, non-ASCII included', () => {
    expect(read('{"reason_code":"Ärger 😀 "}')).to.deep.equal(['Ärger 😀 ', ABSENT]);
  });

  it('leaves to the reader a text with an escape anywhere', () => {
    expect(read('{"reason_code":"LATE","note":"a\\"b"}')).to.equal(false);
    expect(read('{"reason\\u005fcode":"LATE"}')).to.equal(false);
  });

  it('leaves to the reader a checked key written twice, or with a value that is not a string', () => {
    expect(read('{"reason_code":"damaged","reason_code":"LATE"}')).to.equal(false);
    expect(read('{"reason_code":42}')).to.equal(false);
    expect(read('{"reason_code":{"code":"LATE"}}')).to.equal(false);
    expect(read('{"reason_code":null}')).to.equal(false);
  });

  it('refuses what JSON.parse refuses, and anything but one object', () => {
    for (const text of ['[{"reason_code":"LATE"}]', '"reason_code"', '1']) {
      expect(read(text), text).to.equal(false);
    }
    for (const text of [
      '',
      '{"reason_code":"LATE",}',
      '{"reason_code":"LATE"} x',
      '{"reason_code":"LATE"',
      '{reason_code:"LATE"}',
      '{"reason_code":"LA\tTE"}',
      '{"note":"line\nbreak","reason_code":"LATE"}',
      '{"n":01,"reason_code":"LATE"}',
      "{'reason_code':'LATE'}",
    ]) {
      expect(() => JSON.parse(text) as unknown, text).to.throw();
      expect(read(text), text).to.equal(false);
    }
  });
});
