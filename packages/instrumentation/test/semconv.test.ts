import { createRequire } from 'node:module';
import { expect } from 'chai';
import { MISMATCH_SHAPES, UNAVAILABLE_REASONS } from '@argcheck/core';
import * as semconv from '../src/semconv.js';

describe('@argcheck/instrumentation/semconv', () => {
  it('takes the shape and reason values from the core’s closed lists', () => {
    expect(semconv.SHAPE_VALUES).to.equal(MISMATCH_SHAPES);
    expect(semconv.REASON_VALUES).to.equal(UNAVAILABLE_REASONS);
  });

  it('is a package entry for ESM and CommonJS, with the same names', async () => {
    const esm = (await import('@argcheck/instrumentation/semconv')) as Record<string, unknown>;
    const cjs = createRequire(import.meta.url)('@argcheck/instrumentation/semconv') as Record<
      string,
      unknown
    >;
    const names = Object.keys(semconv).sort();
    expect(Object.keys(esm).sort()).to.deep.equal(names);
    expect(
      Object.keys(cjs)
        .filter((k) => k !== '__esModule')
        .sort(),
    ).to.deep.equal(names);
    expect(esm.METRIC_TOOL_ARGUMENT_VALUE_CHECK).to.equal('tool_argument_value_check');
    expect(cjs.ATTR_IN_SET_NORMALISED).to.equal('in_set_normalised');
  });
});
