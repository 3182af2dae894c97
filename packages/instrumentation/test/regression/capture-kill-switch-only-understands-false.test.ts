// Issue 21, item 10: ARGCHECK_CAPTURE_VALUES turned capture off only for
// `false`; `0`, `off`, `no` (what operators write for other switches) kept
// emitted values on log records, silently. Any setting but an explicit yes
// now turns capture off.
import { expect } from 'chai';
import { CAPTURE_VALUES_ENV, resolveConfig } from '../../src/config/resolve-config.js';
import { ManualClock } from '@argcheck/testing/clock';
import { REFUND_ARGUMENTS, refundSources } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { recordFigure } from '@argcheck/testing/figures';

describe('regression: the value-capture kill switch understood only `false`', () => {
  for (const setting of ['0', 'off', 'OFF', 'no', ' No ', 'false', 'disabled', 'flase']) {
    it(`${JSON.stringify(setting)} turns value capture off`, () => {
      expect(resolveConfig({}, { [CAPTURE_VALUES_ENV]: setting }).captureValues).to.equal(false);
      expect(
        resolveConfig({ captureValues: true }, { [CAPTURE_VALUES_ENV]: setting }).captureValues,
      ).to.equal(false);
    });
  }

  it('an instrumentation made under any of them writes its records without the emitted value', async () => {
    const settings = ['0', 'off', 'no', 'false', 'disabled', 'flase'];
    const before = process.env[CAPTURE_VALUES_ENV];
    const off: string[] = [];
    try {
      for (const setting of settings) {
        process.env[CAPTURE_VALUES_ENV] = setting;
        const h = harness({
          valueSets: refundSources(),
          checkedArguments: REFUND_ARGUMENTS,
          logSampleRatio: 1,
          clock: new ManualClock(),
        });
        try {
          await h.inst.ready();
          h.inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
          const records = h.records();
          const valued = records.some((r) =>
            Object.values(r.attributes).includes('CUSTOMER_UNHAPPY'),
          );
          if (records.length === 1 && !valued) off.push(setting);
        } finally {
          await h.close();
        }
      }
    } finally {
      if (before === undefined) delete process.env[CAPTURE_VALUES_ENV];
      else process.env[CAPTURE_VALUES_ENV] = before;
    }
    expect(off).to.deep.equal(settings);
    recordFigure(
      'capture-kill-switch',
      `${off.length} of ${settings.length} settings (${settings.join(', ')}): the check record written without the emitted value`,
    );
  });

  for (const setting of [undefined, '', 'true', '1', 'yes', 'ON']) {
    it(`${JSON.stringify(setting)} leaves the configuration in charge`, () => {
      const env = setting === undefined ? {} : { [CAPTURE_VALUES_ENV]: setting };
      expect(resolveConfig({}, env).captureValues).to.equal(true);
      expect(resolveConfig({ captureValues: false }, env).captureValues).to.equal(false);
    });
  }
});
