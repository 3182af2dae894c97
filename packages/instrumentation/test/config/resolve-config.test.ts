import { expect } from 'chai';
import { ArgcheckConfigError, ErrorCode } from '@argcheck/core';
import { CAPTURE_VALUES_ENV, resolveConfig } from '../../src/config/resolve-config.js';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import type { ToolArgumentInstrumentationConfig } from '../../src/types.js';

function rejects(config: ToolArgumentInstrumentationConfig, code: string): void {
  expect(() => resolveConfig(config, {}))
    .to.throw(ArgcheckConfigError)
    .with.property('code', code);
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const resolved = resolveConfig({}, {});
    expect(resolved).to.deep.include({
      valueSets: {},
      checkedArguments: {},
      mode: 'observe',
      logSampleRatio: 1 / 50,
      captureValues: true,
      maxValueLength: 256,
      random: Math.random,
      mcp: { enabled: true, deriveValueSets: true, maxCheckedArguments: 500 },
      frameworks: { enabled: true, deriveValueSets: true },
      spanOutcome: false,
    });
  });

  it(`lets ${CAPTURE_VALUES_ENV}=false turn value capture off, whatever the config says`, () => {
    expect(CAPTURE_VALUES_ENV).to.equal('ARGCHECK_CAPTURE_VALUES');
    for (const setting of ['false', 'FALSE', ' False ']) {
      expect(resolveConfig({}, { [CAPTURE_VALUES_ENV]: setting }).captureValues).to.equal(false);
      expect(
        resolveConfig({ captureValues: true }, { [CAPTURE_VALUES_ENV]: setting }).captureValues,
      ).to.equal(false);
    }
    expect(resolveConfig({}, { [CAPTURE_VALUES_ENV]: 'true' }).captureValues).to.equal(true);
    // The environment can only turn capture off, never back on.
    expect(
      resolveConfig({ captureValues: false }, { [CAPTURE_VALUES_ENV]: 'true' }).captureValues,
    ).to.equal(false);
  });

  it('rejects bad option values with INVALID_OPTION', () => {
    const bad: ToolArgumentInstrumentationConfig[] = [
      { logSampleRatio: -0.1 },
      { logSampleRatio: 2 },
      { logSampleRatio: Number.NaN },
      { maxValueLength: 0 },
      { maxValueLength: 1.5 },
      { captureValues: 'no' as unknown as boolean },
      { redactValue: 'x' as unknown as undefined },
      { random: 1 as unknown as undefined },
      { mcp: { maxCheckedArguments: -1 } },
      { mcp: { enabled: 1 as unknown as boolean } },
      { frameworks: { enabled: 'yes' as unknown as boolean } },
      { frameworks: { deriveValueSets: 0 as unknown as boolean } },
      { spanOutcome: 'yes' as unknown as boolean },
    ];
    for (const config of bad) rejects(config, ErrorCode.INVALID_OPTION);
  });

  it('throws configuration mistakes from the constructor, with the core codes', () => {
    expect(
      () =>
        new ToolArgumentInstrumentation({
          mcp: { enabled: false },
          checkedArguments: { refund_order: { reason_code: 'nowhere' } },
        }),
    )
      .to.throw(ArgcheckConfigError)
      .with.property('code', ErrorCode.UNKNOWN_SET);
    expect(
      () => new ToolArgumentInstrumentation({ mcp: { enabled: false }, mode: 'loud' as 'observe' }),
    )
      .to.throw(ArgcheckConfigError)
      .with.property('code', ErrorCode.INVALID_OPTION);
    // The provider's own options are validated by the core, at construction too.
    expect(() => new ToolArgumentInstrumentation({ mcp: { enabled: false }, refreshJitter: 0.9 }))
      .to.throw(ArgcheckConfigError)
      .with.property('code', ErrorCode.INVALID_OPTION);
  });
});
