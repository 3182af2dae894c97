import { expect } from 'chai';
import { createRequire } from 'node:module';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { argcheckViews } from '../src/views.js';
import {
  ATTR_ARGUMENT,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_PROMPT_VERSION,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_OUTCOME,
  ATTR_TOOL_DEFINITION,
  ATTR_VALUE,
  INSTRUMENT_ATTRIBUTES,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
} from '../src/semconv.js';
import { PACKAGE_NAME } from '../src/version.js';
import { inSet, refundSeries, setSeries } from './helpers/fixtures.js';
import { collectPoints, pointsOf, PullReader } from '@argcheck/testing/metrics';

const fetched = { ...setSeries('s', 'http'), [ATTR_OUTCOME]: 'success' };

const attributes = refundSeries(inSet(false, false));

describe('argcheckViews', () => {
  it('has one view per instrument, selecting the argcheck meter', () => {
    const views = argcheckViews();
    expect(views.map((v) => [v.meterName, v.instrumentName])).to.deep.equal(
      Object.keys(INSTRUMENT_ATTRIBUTES).map((name) => [PACKAGE_NAME, name]),
    );
  });

  it('drops an attribute the contract does not list', async () => {
    const reader = new PullReader();
    const provider = new MeterProvider({ readers: [reader], views: argcheckViews() });
    const meter = provider.getMeter(PACKAGE_NAME);
    meter
      .createCounter(METRIC_TOOL_ARGUMENT_VALUE_CHECK)
      .add(1, { ...attributes, [ATTR_VALUE]: 'CUSTOMER_UNHAPPY' });
    meter
      .createCounter(METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH)
      .add(1, { ...fetched, url: 'http://owner/codes' });
    const collected = await collectPoints(reader);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes, value: 1 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH)).to.deep.equal([
      { attributes: fetched, value: 1 },
    ]);
    await provider.shutdown();
  });

  it('caps the series of each instrument at its share of maxArguments', async () => {
    const reader = new PullReader();
    const provider = new MeterProvider({
      readers: [reader],
      views: argcheckViews({ maxArguments: 2, maxAttributions: 1 }),
    });
    const counter = provider.getMeter(PACKAGE_NAME).createCounter(METRIC_TOOL_ARGUMENT_VALUE_CHECK);
    for (let i = 0; i < 20; i++) counter.add(1, { ...attributes, [ATTR_ARGUMENT]: `a${i}` });
    // 3 series per argument × 2 arguments × 1 attribution, the SDK's overflow series counting the rest.
    expect(pointsOf(await collectPoints(reader), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.have.length(
      6,
    );
    await provider.shutdown();
  });

  it('rejects a maxArguments that is not a positive integer', () => {
    expect(() => argcheckViews({ maxArguments: 0 })).to.throw(/maxArguments/);
    expect(() => argcheckViews({ maxAttributions: 1.5 })).to.throw(/maxAttributions/);
  });

  it('keeps the attribution attributes on call-level instruments only', async () => {
    const reader = new PullReader();
    const provider = new MeterProvider({ readers: [reader], views: argcheckViews() });
    const meter = provider.getMeter(PACKAGE_NAME);
    const attribution = {
      [ATTR_GEN_AI_REQUEST_MODEL]: 'gpt-5',
      [ATTR_GEN_AI_PROVIDER_NAME]: 'openai',
      [ATTR_GEN_AI_AGENT_NAME]: 'support',
      [ATTR_GEN_AI_PROMPT_VERSION]: 'v7',
      [ATTR_TOOL_DEFINITION]: '0123456789ab',
    };
    meter.createCounter(METRIC_TOOL_ARGUMENT_VALUE_CHECK).add(1, { ...attributes, ...attribution });
    meter
      .createCounter(METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH)
      .add(1, { ...fetched, ...attribution });
    const collected = await collectPoints(reader);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: { ...attributes, ...attribution }, value: 1 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH)).to.deep.equal([
      { attributes: fetched, value: 1 },
    ]);
    await provider.shutdown();
  });

  it('allows maxAttributions variants of each argument’s series on call-level instruments', async () => {
    const reader = new PullReader();
    const provider = new MeterProvider({
      readers: [reader],
      views: argcheckViews({ maxArguments: 1, maxAttributions: 2 }),
    });
    const counter = provider.getMeter(PACKAGE_NAME).createCounter(METRIC_TOOL_ARGUMENT_VALUE_CHECK);
    for (let i = 0; i < 20; i++) {
      counter.add(1, { ...attributes, [ATTR_GEN_AI_REQUEST_MODEL]: `m${i}` });
    }
    // 3 series per argument × 1 argument × 2 attributions.
    expect(pointsOf(await collectPoints(reader), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.have.length(
      6,
    );
    await provider.shutdown();
  });

  it('loads from the CommonJS build through the package entry', function () {
    // The first require reads the SDK's CommonJS build from disk: seconds on a
    // loaded machine (it took over 2 s once in CI's Node 24 run).
    this.timeout(30_000);
    const require = createRequire(import.meta.url);
    const views = require('@argcheck/instrumentation/views') as {
      argcheckViews: typeof argcheckViews;
    };
    expect(views.argcheckViews()).to.have.length(Object.keys(INSTRUMENT_ATTRIBUTES).length);
  });
});
