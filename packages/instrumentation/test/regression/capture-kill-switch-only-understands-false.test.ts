// Issue 21, item 10: ARGCHECK_CAPTURE_VALUES turned capture off only for
// `false`; `0`, `off`, `no` (what operators write for other switches) kept
// emitted values on log records, silently. Any setting but an explicit yes
// now turns capture off.
import { expect } from 'chai';
import { CAPTURE_VALUES_ENV, resolveConfig } from '../../src/config/resolve-config.js';

describe('regression: the value-capture kill switch understood only `false`', () => {
  for (const setting of ['0', 'off', 'OFF', 'no', ' No ', 'false', 'disabled', 'flase']) {
    it(`${JSON.stringify(setting)} turns value capture off`, () => {
      expect(resolveConfig({}, { [CAPTURE_VALUES_ENV]: setting }).captureValues).to.equal(false);
      expect(
        resolveConfig({ captureValues: true }, { [CAPTURE_VALUES_ENV]: setting }).captureValues,
      ).to.equal(false);
    });
  }

  for (const setting of [undefined, '', 'true', '1', 'yes', 'ON']) {
    it(`${JSON.stringify(setting)} leaves the configuration in charge`, () => {
      const env = setting === undefined ? {} : { [CAPTURE_VALUES_ENV]: setting };
      expect(resolveConfig({}, env).captureValues).to.equal(true);
      expect(resolveConfig({ captureValues: false }, env).captureValues).to.equal(false);
    });
  }
});
