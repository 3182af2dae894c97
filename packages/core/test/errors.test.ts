import { expect } from 'chai';
import { ArgcheckConfigError, ErrorCode } from '../src/index.js';

describe('ArgcheckConfigError', () => {
  it('carries a stable code and is an Error', () => {
    const err = new ArgcheckConfigError(ErrorCode.INVALID_PATH, 'bad path "a..b"');
    expect(err).to.be.instanceOf(Error);
    expect({ name: err.name, code: err.code, message: err.message }).to.deep.equal({
      name: 'ArgcheckConfigError',
      code: 'ARGCHECK_INVALID_PATH',
      message: 'bad path "a..b"',
    });
  });
});
