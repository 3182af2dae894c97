import { expect } from 'chai';
import { startCollector, type RunningCollector } from './support/collector-process.js';
import { parseExposition, samplesNamed } from './support/exposition.js';
import {
  ARGCHECK_SCOPE,
  CHECK_EVENT,
  NOW,
  attrs,
  gauge,
  histogram,
  logsRequest,
  metricsRequest,
  stringAttributes,
  sum,
  type LogRecordJson,
} from './support/otlp-json.js';

// otel-collector.yaml, run by the real argcheck collector on loopback ports,
// fed hand-written OTLP/JSON (not the instrumentation: that is the end-to-end
// test's job). Proves what the collector itself promises: Prometheus names
// with suffixes, the per-instrument allow-lists (with counts merged, not
// lost), string attribute values, and capped, allow-listed log records.
// Hostile inputs, one file per defect found, are in regression/.

const refund = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
const set = { set: 'refunds.reason_codes', source: 'http' };

const contractMetrics = [
  sum('tool_argument_value_check', '{check}', [
    // A misconfigured application added the emitted value as an attribute:
    // two series that must merge back into one...
    [5, { ...refund, in_set: 'false', in_set_normalised: 'false', value: 'CUSTOMER_UNHAPPY' }],
    // ...one of them with a boolean instead of the string "false".
    [7, { ...refund, in_set: false, in_set_normalised: 'false', value: 'NOT_A_CODE' }],
    [988, { ...refund, in_set: 'true', in_set_normalised: 'true' }],
  ]),
  sum('tool_argument_mismatch', '{check}', [
    [5, { ...refund, shape: 'invented', 'gen_ai.conversation.id': 'c-1' }],
    [7, { ...refund, shape: 'invented', 'gen_ai.conversation.id': 'c-2' }],
  ]),
  sum('tool_argument_check_unavailable', '{check}', [[3, { ...refund, reason: 'timeout' }]]),
  sum('tool_argument_repair_started', '{call}', [[4, { tool: 'refund_order', argument: 'x' }]]),
  // Delta temporality (an SDK set to prefer it) is the contract's type too.
  sum('tool_argument_rewritten', '{call}', [[2, refund]], { delta: true }),
  sum('tool_argument_call', '{call}', [
    [10, { tool: 'refund_order', integration: 'mcp', coverage: 'checked', argument: 'x' }],
    [3, { tool: 'refund_order', integration: 'mcp', coverage: 'checked', argument: 'y' }],
  ]),
  sum('tool_argument_value_set_fetch', '{fetch}', [[9, { ...set, outcome: 'success' }]]),
  histogram('tool_argument_value_set_fetch_duration', 's', [
    {
      count: 9,
      sum: 0.9,
      buckets: [6, 3, 0],
      bounds: [0.1, 1],
      a: { ...set, outcome: 'success', url: 'https://owner/x' },
    },
  ]),
  gauge('tool_argument_value_set_age', 's', [
    [12, { ...set, replica: 'a' }],
    [40, { ...set, replica: 'b' }],
  ]),
  gauge('tool_argument_value_set_size', '{value}', [[6, set]]),
  // Not argcheck's: passes through untouched.
  gauge('app_queue_depth', '{item}', [[3, { queue: 'refunds' }]]),
];

const LONG_VALUE = 'é'.repeat(200); // 200 UTF-16 units, 400 UTF-8 bytes

const checkRecords: LogRecordJson[] = [
  {
    timeUnixNano: NOW,
    eventName: CHECK_EVENT,
    severityNumber: 13,
    attributes: attrs({
      ...refund,
      in_set: false,
      in_set_normalised: 'false',
      shape: 'invented',
      value: LONG_VALUE,
      value_truncated: 'false',
      'gen_ai.conversation.id': 'conv-1',
      'gen_ai.tool.call.id': 'call-1',
      'user.email': 'someone@example.com',
      prompt: 'the whole prompt',
    }),
  },
  {
    timeUnixNano: NOW,
    eventName: CHECK_EVENT,
    attributes: attrs({ ...refund, in_set: 'true', in_set_normalised: 'true', value: 'DUPLICATE' }),
  },
];

// A check event from a scope that is not argcheck's (a hand-rolled emitter):
// it claims the contract, so it is held to it.
const claimedCheckRecord: LogRecordJson = {
  timeUnixNano: NOW,
  eventName: CHECK_EVENT,
  attributes: attrs({ ...refund, in_set: 'true', in_set_normalised: 'true', prompt: 'text' }),
};

const otherRecord: LogRecordJson = {
  timeUnixNano: NOW,
  body: { stringValue: 'somebody else’s log' },
  attributes: attrs({ 'user.email': 'kept@example.com' }),
};

const LOG_ATTRIBUTES = [
  'tool',
  'argument',
  'set',
  'in_set',
  'in_set_normalised',
  'shape',
  'value',
  'value_truncated',
  'gen_ai.conversation.id',
  'gen_ai.tool.call.id',
];

describe('pipeline: the collector with otel-collector.yaml', function () {
  this.timeout(60_000);

  let collector: RunningCollector;
  let scrape = '';
  let records: { scope: string | undefined; record: LogRecordJson }[] = [];

  before(async function () {
    collector = await startCollector();
    const resource = { 'service.name': 'refund-agent', 'service.instance.id': 'pod-1' };
    await collector.post(
      '/v1/metrics',
      metricsRequest(resource, [{ scope: ARGCHECK_SCOPE, items: contractMetrics }]),
    );
    await collector.post(
      '/v1/logs',
      logsRequest({ 'service.name': 'refund-agent' }, [
        { scope: ARGCHECK_SCOPE, items: checkRecords },
        { scope: 'refund-agent', items: [claimedCheckRecord, otherRecord] },
      ]),
    );
    scrape = await collector.scrapeWhen('argcheck series on the Prometheus exporter', (text) =>
      text.includes('tool_argument_value_set_size'),
    );
    records = await collector.recordsWhen(
      'log records in the file exporter',
      (found) => found.length >= 4,
    );
  });

  after(() => collector?.stop());

  const samples = (name: string) => samplesNamed(scrape, name);
  const values = (name: string) => samples(name).map((s) => s.value);

  it('names counters with _total and units with suffixes', () => {
    for (const name of [
      'tool_argument_value_check_total',
      'tool_argument_mismatch_total',
      'tool_argument_check_unavailable_total',
      'tool_argument_repair_started_total',
      'tool_argument_rewritten_total',
      'tool_argument_call_total',
      'tool_argument_value_set_fetch_total',
      'tool_argument_value_set_fetch_duration_seconds_bucket',
      'tool_argument_value_set_fetch_duration_seconds_count',
      'tool_argument_value_set_age_seconds',
      'tool_argument_value_set_size',
    ]) {
      expect(samples(name), `${name}\n${scrape}`).to.not.be.empty;
    }
  });

  it('keeps exactly the contract labels on every argcheck series (plus job and instance)', () => {
    const expected: Record<string, string[]> = {
      tool_argument_value_check_total: ['tool', 'argument', 'set', 'in_set', 'in_set_normalised'],
      tool_argument_mismatch_total: ['tool', 'argument', 'set', 'shape'],
      tool_argument_check_unavailable_total: ['tool', 'argument', 'set', 'reason'],
      tool_argument_repair_started_total: ['tool'],
      tool_argument_rewritten_total: ['tool', 'argument', 'set'],
      tool_argument_call_total: ['tool', 'integration', 'coverage'],
      tool_argument_value_set_fetch_total: ['set', 'source', 'outcome'],
      tool_argument_value_set_fetch_duration_seconds_count: ['set', 'source', 'outcome'],
      tool_argument_value_set_fetch_duration_seconds_bucket: ['set', 'source', 'outcome', 'le'],
      tool_argument_value_set_age_seconds: ['set', 'source'],
      tool_argument_value_set_size: ['set', 'source'],
    };
    for (const [name, labels] of Object.entries(expected)) {
      for (const sample of samples(name)) {
        expect(Object.keys(sample.labels).sort(), name).to.deep.equal(
          [...labels, 'job', 'instance'].sort(),
        );
        expect(sample.labels).to.include({ job: 'refund-agent', instance: 'pod-1' });
      }
    }
    expect(scrape).not.to.include('CUSTOMER_UNHAPPY');
    expect(scrape).not.to.include('otel_scope_');
  });

  it('merges the data points an extra attribute had split, instead of keeping one of them', () => {
    const byInSet = (v: string) =>
      samples('tool_argument_value_check_total').filter((s) => s.labels.in_set === v);
    // The boolean false became the string "false": one series, 5 + 7.
    expect(
      byInSet('false').map((s) => s.value),
      scrape,
    ).to.deep.equal([12]);
    expect(byInSet('true').map((s) => s.value)).to.deep.equal([988]);
    expect(values('tool_argument_mismatch_total')).to.deep.equal([12]);
    expect(values('tool_argument_repair_started_total')).to.deep.equal([4]);
    expect(values('tool_argument_rewritten_total')).to.deep.equal([2]);
    expect(values('tool_argument_call_total')).to.deep.equal([13]);
    expect(values('tool_argument_value_set_fetch_duration_seconds_count')).to.deep.equal([9]);
  });

  it('reports the oldest age and the largest size of a set', () => {
    expect(values('tool_argument_value_set_age_seconds')).to.deep.equal([40]);
    expect(values('tool_argument_value_set_size')).to.deep.equal([6]);
  });

  it('leaves metrics that are not argcheck’s alone', () => {
    expect(parseExposition(scrape).filter((s) => s.name === 'app_queue_depth')).to.deep.equal([
      {
        name: 'app_queue_depth',
        labels: { queue: 'refunds', job: 'refund-agent', instance: 'pod-1' },
        value: 3,
      },
    ]);
  });

  const checks = () => records.filter((r) => r.record.eventName === CHECK_EVENT);

  it('keeps only contract attributes on argcheck log records, as strings', () => {
    expect(checks().map((r) => r.scope)).to.deep.equal([
      ARGCHECK_SCOPE,
      ARGCHECK_SCOPE,
      'refund-agent',
    ]);
    for (const { record } of checks()) {
      for (const kv of record.attributes ?? []) {
        expect(LOG_ATTRIBUTES, kv.key).to.include(kv.key);
        expect(kv.value, kv.key).to.have.all.keys('stringValue');
      }
    }
    expect(stringAttributes(checks()[0]!.record)).to.deep.equal({
      ...refund,
      in_set: 'false',
      in_set_normalised: 'false',
      shape: 'invented',
      value: 'é'.repeat(128),
      value_truncated: 'true',
      'gen_ai.conversation.id': 'conv-1',
      'gen_ai.tool.call.id': 'call-1',
    });
  });

  it('holds a check record from another scope to the same allow-list', () => {
    expect(stringAttributes(checks()[2]!.record)).to.deep.equal({
      ...refund,
      in_set: 'true',
      in_set_normalised: 'true',
    });
  });

  it('caps attribute values at 256 bytes on a UTF-8 boundary and says so in value_truncated', () => {
    const first = stringAttributes(checks()[0]!.record);
    expect(Buffer.byteLength(first.value!, 'utf8')).to.equal(256);
    expect(first.value).to.equal('é'.repeat(128));
    expect(first.value_truncated).to.equal('true');
    const second = stringAttributes(checks()[1]!.record);
    expect(second.value).to.equal('DUPLICATE');
    expect(second).not.to.have.property('value_truncated');
  });

  it('passes other log records through untouched', () => {
    expect(records.filter((r) => r.record.eventName === undefined)).to.deep.equal([
      { scope: 'refund-agent', record: otherRecord },
    ]);
  });

  it('keeps writing the log file while the default otlp_http endpoint is unreachable', () => {
    expect(collector.running(), collector.stderr()).to.equal(true);
    expect(records).to.have.length(4);
  });
});
