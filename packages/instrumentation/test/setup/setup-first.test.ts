import { expect } from 'chai';

// The suite's mocha config must load test/setup/opentelemetry-first.mjs
// before mocha defines its globals; a config file elsewhere that shadows
// this package's (as a root .mocharc.yml once did) leaves every
// instrumentation a require hook of its own, and the Node 24 lane overflowed
// the stack.
describe('the test setup', () => {
  it('ran before mocha defined its globals', () => {
    expect(
      (globalThis as Record<symbol, unknown>)[Symbol.for('argcheck.test.setup-first')],
    ).to.deep.equal({
      mochaGlobals: false,
    });
  });
});
