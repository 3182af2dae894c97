import { createSecureContext } from 'node:tls';
import { expect } from 'chai';
import { integer, selfSignedCert } from '../src/certificates.js';

describe('selfSignedCert', () => {
  it('encodes INTEGERs as DER requires: no leading zero bytes, one before a set top bit', () => {
    const hex = (bytes: number[]) => integer(Buffer.from(bytes)).toString('hex');
    expect(hex([0x00, 0x01, 0x02])).to.equal('02020102');
    expect(hex([0x00, 0x00, 0x80])).to.equal('02020080');
    expect(hex([0x80, 0x01])).to.equal('0203008001');
    expect(hex([0x00, 0x00])).to.equal('020100');
    expect(hex([0x7f])).to.equal('02017f');
  });

  // A random serial starting with a zero byte made OpenSSL refuse the
  // certificate ("illegal padding") in 1 of 512 runs, failing the suite.
  it('makes a certificate TLS accepts whatever the serial starts with', () => {
    for (const serial of [
      [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07],
      [0x00, 0x80, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07],
      [0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07],
      [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    ]) {
      const { key, cert } = selfSignedCert(Buffer.from(serial));
      expect(
        () => createSecureContext({ key, cert }),
        Buffer.from(serial).toString('hex'),
      ).not.to.throw();
    }
  });
});
