import { expect } from 'chai';
import {
  ATTRIBUTION_ATTRIBUTES,
  INSTRUMENT_ATTRIBUTES,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION,
} from '@argcheck/instrumentation/semconv';
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
const ticket = { tool: 'create_ticket', argument: 'component_id', set: 'catalog.components' };
const set = { set: 'refunds.reason_codes', source: 'http' };

// Attribution as the instrumentation sends it (dotted names), and as the
// Prometheus exporter writes it (underscores).
const GPT = {
  'gen_ai.request.model': 'gpt-4.1',
  'gen_ai.provider.name': 'openai',
  'gen_ai.agent.name': 'support',
  'gen_ai.prompt.version': 'v7',
  tool_definition: '0a1b2c3d4e5f',
};
const GPT_LABELS = {
  gen_ai_request_model: 'gpt-4.1',
  gen_ai_provider_name: 'openai',
  gen_ai_agent_name: 'support',
  gen_ai_prompt_version: 'v7',
  tool_definition: '0a1b2c3d4e5f',
};
const CLAUDE = { 'gen_ai.request.model': 'claude-sonnet-4', tool_definition: '9f8e7d6c5b4a' };
const CLAUDE_LABELS = { gen_ai_request_model: 'claude-sonnet-4', tool_definition: '9f8e7d6c5b4a' };
/** Attributes the GenAI conventions define but argcheck's contract does not carry. */
const NOT_ATTRIBUTION = { 'gen_ai.response.id': 'resp-1', 'gen_ai.usage.input_tokens': 812 };

/** What the exporter makes of an attribute key. */
const promLabel = (key: string): string => key.replace(/\./g, '_');

const contractMetrics = [
  sum('tool_argument_value_check', '{check}', [
    // A misconfigured application added the emitted value as an attribute:
    // two series that must merge back into one...
    [5, { ...refund, in_set: 'false', in_set_normalised: 'false', value: 'CUSTOMER_UNHAPPY' }],
    // ...one of them with a boolean instead of the string "false".
    [7, { ...refund, in_set: false, in_set_normalised: 'false', value: 'NOT_A_CODE' }],
    [988, { ...refund, in_set: 'true', in_set_normalised: 'true' }],
    // Attributed: two models stay two series; keys outside the contract go
    // and the points they split merge back (40 + 2).
    [40, { ...ticket, in_set: 'false', in_set_normalised: 'false', ...GPT, ...NOT_ATTRIBUTION }],
    [2, { ...ticket, in_set: 'false', in_set_normalised: 'false', ...GPT, value: 'COMP-9' }],
    [30, { ...ticket, in_set: 'false', in_set_normalised: 'false', ...CLAUDE }],
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
    [6, { tool: 'create_ticket', integration: 'ai_sdk', coverage: 'checked', ...CLAUDE }],
  ]),
  // Reject mode: one outcome per rejected argument, with the attribution.
  sum('tool_argument_repair_outcome', '{call}', [
    [3, { ...ticket, outcome: 'resolved', ...GPT, 'gen_ai.conversation.id': 'c-1' }],
    [2, { ...ticket, outcome: 'resolved', ...GPT, 'gen_ai.conversation.id': 'c-2' }],
    [1, { ...ticket, outcome: 'repeated', ...CLAUDE }],
    [4, { ...ticket, outcome: 'abandoned' }],
  ]),
  // Members added and removed at a refresh: no attribution, nothing else kept.
  sum('tool_argument_value_set_change', '{value}', [
    [2, { ...set, change: 'added', ...GPT }],
    [1, { ...set, change: 'added', value: 'NEW_CODE' }],
    [1, { ...set, change: 'removed' }],
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

// An attributed check record: the attribution keys are contract attributes.
const attributedCheckRecord: LogRecordJson = {
  timeUnixNano: NOW,
  eventName: CHECK_EVENT,
  severityNumber: 13,
  severityText: 'WARN',
  attributes: attrs({
    ...ticket,
    in_set: 'false',
    in_set_normalised: 'false',
    shape: 'invented',
    ...GPT,
    ...NOT_ATTRIBUTION,
  }),
};

const DEFINITION_EVENT = 'tool_argument_tool_definition';
const LONG_SCHEMA = 'é'.repeat(7_000); // 14,000 UTF-8 bytes: more than argcheck writes

// What a tool_definition hash stands for, written once per hash.
const definitionRecord: LogRecordJson = {
  timeUnixNano: NOW,
  eventName: DEFINITION_EVENT,
  severityNumber: 9,
  severityText: 'INFO',
  body: { stringValue: 'not the contract’s' },
  attributes: attrs({
    tool: 'create_ticket',
    tool_definition: '0a1b2c3d4e5f',
    tool_description: 'Opens a ticket. component_id is one of the catalog’s components.',
    tool_input_schema: LONG_SCHEMA,
    'user.email': 'someone@example.com',
  }),
};

// The same event in the older SDKs' form (event name in the attribute), from
// another scope: held to the same contract, written in one form.
const claimedDefinitionRecord: LogRecordJson = {
  timeUnixNano: NOW,
  severityText: 'DEBUG',
  attributes: attrs({
    'event.name': DEFINITION_EVENT,
    tool: 'refund_order',
    tool_definition: '9f8e7d6c5b4a',
    tool_description: 'Refunds an order.',
    tool_input_schema: '{"type":"object"}',
    prompt: 'text',
  }),
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
  ...ATTRIBUTION_ATTRIBUTES,
];
const DEFINITION_ATTRIBUTES = ['tool', 'tool_definition', 'tool_description', 'tool_input_schema'];

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
        {
          scope: ARGCHECK_SCOPE,
          items: [...checkRecords, attributedCheckRecord, definitionRecord],
        },
        {
          scope: 'refund-agent',
          items: [claimedCheckRecord, claimedDefinitionRecord, otherRecord],
        },
      ]),
    );
    scrape = await collector.scrapeWhen('argcheck series on the Prometheus exporter', (text) =>
      text.includes('tool_argument_value_set_size'),
    );
    records = await collector.recordsWhen(
      'log records in the file exporter',
      (found) => found.length >= 7,
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
      'tool_argument_repair_outcome_total',
      'tool_argument_value_set_fetch_total',
      'tool_argument_value_set_fetch_duration_seconds_bucket',
      'tool_argument_value_set_fetch_duration_seconds_count',
      'tool_argument_value_set_age_seconds',
      'tool_argument_value_set_size',
      'tool_argument_value_set_change_total',
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
      tool_argument_repair_outcome_total: ['tool', 'argument', 'set', 'outcome'],
      tool_argument_value_set_fetch_total: ['set', 'source', 'outcome'],
      tool_argument_value_set_fetch_duration_seconds_count: ['set', 'source', 'outcome'],
      tool_argument_value_set_fetch_duration_seconds_bucket: ['set', 'source', 'outcome', 'le'],
      tool_argument_value_set_age_seconds: ['set', 'source'],
      tool_argument_value_set_size: ['set', 'source'],
      tool_argument_value_set_change_total: ['set', 'source', 'change'],
    };
    // The test's table is the instrumentation's contract (semconv), Prometheus-named.
    for (const [metric, keys] of Object.entries(INSTRUMENT_ATTRIBUTES)) {
      const names = Object.keys(expected).filter(
        (n) => n === metric || n.startsWith(`${metric}_total`) || n.startsWith(`${metric}_seconds`),
      );
      const own = metric === METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION ? 2 : 1;
      expect(names, metric).to.have.length(own);
      for (const n of names)
        expect(
          expected[n]!.filter((l) => l !== 'le'),
          n,
        ).to.deep.equal(keys);
    }
    const attribution = ATTRIBUTION_ATTRIBUTES.map(promLabel);
    for (const [name, labels] of Object.entries(expected)) {
      for (const sample of samples(name)) {
        // Call-level series may carry attribution labels, the others none.
        const mayCarry = labels[0] === 'tool' ? attribution : [];
        const own = Object.keys(sample.labels).filter((l) => !mayCarry.includes(l));
        expect(own.sort(), name).to.deep.equal([...labels, 'job', 'instance'].sort());
        expect(sample.labels).to.include({ job: 'refund-agent', instance: 'pod-1' });
      }
    }
    expect(scrape).not.to.include('CUSTOMER_UNHAPPY');
    expect(scrape).not.to.include('COMP-9');
    expect(scrape).not.to.include('NEW_CODE');
    expect(scrape).not.to.include('gen_ai_response_id');
    expect(scrape).not.to.include('gen_ai_usage');
    expect(scrape).not.to.include('gen_ai_conversation_id');
    expect(scrape).not.to.include('otel_scope_');
  });

  it('keeps the attribution labels on the call-level series, one series per model, merged where only dropped keys differed', () => {
    const identity = { job: 'refund-agent', instance: 'pod-1' };
    const outOfSet = { in_set: 'false', in_set_normalised: 'false' };
    const ticketChecks = samples('tool_argument_value_check_total').filter(
      (s) => s.labels.tool === 'create_ticket',
    );
    expect(ticketChecks, scrape).to.have.deep.members([
      {
        name: 'tool_argument_value_check_total',
        labels: { ...ticket, ...outOfSet, ...GPT_LABELS, ...identity },
        value: 42,
      },
      {
        name: 'tool_argument_value_check_total',
        labels: { ...ticket, ...outOfSet, ...CLAUDE_LABELS, ...identity },
        value: 30,
      },
    ]);
    expect(
      samples('tool_argument_call_total').filter((s) => s.labels.tool === 'create_ticket'),
    ).to.deep.equal([
      {
        name: 'tool_argument_call_total',
        labels: {
          tool: 'create_ticket',
          integration: 'ai_sdk',
          coverage: 'checked',
          ...CLAUDE_LABELS,
          ...identity,
        },
        value: 6,
      },
    ]);
  });

  it('passes tool_argument_repair_outcome with its outcome and the attribution', () => {
    const identity = { job: 'refund-agent', instance: 'pod-1' };
    expect(samples('tool_argument_repair_outcome_total'), scrape).to.have.deep.members([
      {
        name: 'tool_argument_repair_outcome_total',
        labels: { ...ticket, outcome: 'resolved', ...GPT_LABELS, ...identity },
        value: 5,
      },
      {
        name: 'tool_argument_repair_outcome_total',
        labels: { ...ticket, outcome: 'repeated', ...CLAUDE_LABELS, ...identity },
        value: 1,
      },
      {
        name: 'tool_argument_repair_outcome_total',
        labels: { ...ticket, outcome: 'abandoned', ...identity },
        value: 4,
      },
    ]);
  });

  it('passes tool_argument_value_set_change with set, source and change only', () => {
    const identity = { job: 'refund-agent', instance: 'pod-1' };
    expect(samples('tool_argument_value_set_change_total'), scrape).to.have.deep.members([
      {
        name: 'tool_argument_value_set_change_total',
        labels: { ...set, change: 'added', ...identity },
        value: 3,
      },
      {
        name: 'tool_argument_value_set_change_total',
        labels: { ...set, change: 'removed', ...identity },
        value: 1,
      },
    ]);
  });

  it('merges the data points an extra attribute had split, instead of keeping one of them', () => {
    const byInSet = (v: string) =>
      samples('tool_argument_value_check_total').filter((s) => s.labels.in_set === v);
    // The boolean false became the string "false": one series, 5 + 7.
    expect(
      byInSet('false')
        .filter((s) => s.labels.tool === 'refund_order')
        .map((s) => s.value),
      scrape,
    ).to.deep.equal([12]);
    expect(byInSet('true').map((s) => s.value)).to.deep.equal([988]);
    expect(values('tool_argument_mismatch_total')).to.deep.equal([12]);
    expect(values('tool_argument_repair_started_total')).to.deep.equal([4]);
    expect(values('tool_argument_rewritten_total')).to.deep.equal([2]);
    expect(
      samples('tool_argument_call_total')
        .filter((s) => s.labels.tool === 'refund_order')
        .map((s) => s.value),
    ).to.deep.equal([13]);
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

  it('keeps the attribution keys on check records, and only those of the GenAI keys', () => {
    expect(stringAttributes(checks()[2]!.record)).to.deep.equal({
      ...ticket,
      in_set: 'false',
      in_set_normalised: 'false',
      shape: 'invented',
      ...GPT,
    });
  });

  it('holds a check record from another scope to the same allow-list', () => {
    expect(stringAttributes(checks()[3]!.record)).to.deep.equal({
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

  const definitions = () => records.filter((r) => r.record.eventName === DEFINITION_EVENT);

  it('lets the tool-definition record through with its four attributes, as strings, no body', () => {
    expect(definitions().map((r) => r.scope)).to.deep.equal([ARGCHECK_SCOPE, 'refund-agent']);
    for (const { record } of definitions()) {
      for (const kv of record.attributes ?? []) {
        expect(DEFINITION_ATTRIBUTES, kv.key).to.include(kv.key);
        expect(kv.value, kv.key).to.have.all.keys('stringValue');
      }
      expect(record.body ?? {}, 'no body').to.deep.equal({});
    }
    const [own, claimed] = definitions().map((r) => r.record);
    expect(stringAttributes(own!)).to.deep.equal({
      tool: 'create_ticket',
      tool_definition: '0a1b2c3d4e5f',
      tool_description: 'Opens a ticket. component_id is one of the catalog’s components.',
      // Capped at 12,288 bytes (what 4,096 UTF-16 units can take), on a UTF-8 boundary.
      tool_input_schema: 'é'.repeat(6_144),
    });
    expect(own!.severityText).to.equal('INFO');
    // The older form is written with the event name in its field, and its
    // severity text (not the contract's) cleared.
    expect(stringAttributes(claimed!)).to.deep.equal({
      tool: 'refund_order',
      tool_definition: '9f8e7d6c5b4a',
      tool_description: 'Refunds an order.',
      tool_input_schema: '{"type":"object"}',
    });
    expect(claimed!.severityText ?? '').to.equal('');
  });

  it('passes other log records through untouched', () => {
    expect(records.filter((r) => r.record.eventName === undefined)).to.deep.equal([
      { scope: 'refund-agent', record: otherRecord },
    ]);
  });

  it('keeps writing the log file while the default otlp_http endpoint is unreachable', () => {
    expect(collector.running(), collector.stderr()).to.equal(true);
    expect(records).to.have.length(7);
  });
});
