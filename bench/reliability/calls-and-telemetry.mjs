// Concurrency, telemetry faults, adversarial arguments, cardinality floods and
// MCP behaviour, through the real checker and instrumentation.
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { z } from 'zod';
import {
  createArgumentChecker,
  createValueSetProvider,
  httpValueSet,
  staticValueSet,
} from '@argcheck/core';
import { seededRandom } from '../lib/ids.mjs';
import { num } from '../lib/report.mjs';
import { nowNs } from '../lib/stats.mjs';
import {
  CHECKED,
  CODES,
  FakeClock,
  callsChanged,
  instrumented,
  loopbackOwner,
  nsPerCallSideBySide,
  settle,
} from './harness.mjs';

const refunds = () => ({ refunds: staticValueSet(CODES) });

/** A ready provider of the refund codes, and a checker over it (`CHECKED`, observe, unless `options` say). */
async function refundsChecker(options = {}) {
  const provider = createValueSetProvider({ sources: refunds() });
  await provider.ready();
  const checker = createArgumentChecker({
    valueSets: provider,
    checkedArguments: CHECKED,
    ...options,
  });
  return { provider, checker };
}

export const concurrency = [
  {
    fault: '1,000 checks arrive together on a cold set',
    expected:
      'Exactly one fetch; every check answers at once (`unavailable: cold`) and the call goes out.',
    proof: [
      [
        'packages/core/test/provider/get.test.ts',
        'starts exactly one fetch for 1,000 concurrent get() calls on a cold set',
      ],
      [
        'packages/core/test/checker/owner-faults.test.ts',
        '1,000 checks on a cold set start exactly one fetch',
      ],
    ],
    async run() {
      const owner = await loopbackOwner();
      const provider = createValueSetProvider({
        sources: { refunds: httpValueSet(owner.url) },
        clock: new FakeClock(),
      });
      const checker = createArgumentChecker({ valueSets: provider, checkedArguments: CHECKED });
      const inputs = Array.from({ length: 1_000 }, () => ({ reason_code: 'LATE' }));
      const outcomes = await Promise.all(
        inputs.map((args) => Promise.resolve().then(() => checker.check('refund_order', args))),
      );
      await provider.ready();
      const cold = outcomes.filter((o) => o.findings[0]?.reason === 'cold').length;
      const fetches = owner.stats.requests;
      provider.close();
      await owner.close();
      return {
        figure: `${fetches} fetch for 1,000 checks; ${num(cold)} answered \`cold\`; ${callsChanged(outcomes, inputs)} calls changed`,
        data: { fetches, cold },
        ok: fetches === 1,
      };
    },
  },
  {
    fault: '`refresh()` and `get()` hammered while a load is in flight',
    expected: 'Single flight: one load per set at a time; every caller joins it.',
    proof: [
      [
        'packages/core/test/provider/refresh.test.ts',
        'keeps one load in flight however often refresh() and get() are called',
      ],
    ],
    async run() {
      let loads = 0;
      let release;
      const gate = new Promise((r) => (release = r));
      const provider = createValueSetProvider({
        sources: {
          refunds: {
            kind: 'function',
            load: async () => {
              loads += 1;
              await gate;
              return CODES;
            },
          },
        },
        clock: new FakeClock(),
      });
      const waits = [];
      for (let i = 0; i < 1_000; i++) {
        waits.push(provider.refresh('refunds'));
        provider.get('refunds');
      }
      release();
      await Promise.all(waits);
      provider.close();
      return {
        figure: `${loads} load for 1,000 \`refresh()\` and 1,000 \`get()\` calls`,
        data: { loads },
        ok: loads === 1,
      };
    },
  },
];

async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function boom() {
  throw new Error('telemetry is broken');
}

/** Outcomes of a fixed mix of calls, in each mode, through an instrumentation. */
async function outcomesOf(providers, mode) {
  const t = instrumented(
    { valueSets: refunds(), checkedArguments: CHECKED, mode, logSampleRatio: 1 },
    providers,
  );
  await t.inst.ready();
  const values = ['LATE', 'damaged', 'CUSTOMER_UNHAPPY', 7, 'Not As Described'];
  const outcomes = [];
  for (let i = 0; i < 1_000; i++) {
    outcomes.push(t.inst.check('refund_order', { reason_code: values[i % values.length] }));
  }
  await t.close();
  return JSON.stringify(outcomes);
}

export const telemetryFaults = [
  {
    fault: 'The meter and logger providers throw (on every call, or when asked for a meter/logger)',
    expected:
      'Calls are exactly what they would be with working telemetry, in every mode; nothing is thrown or rejected.',
    proof: [
      [
        'packages/instrumentation/test/telemetry/faults.test.ts',
        'never changes a call (observe): throwing meters and loggers',
        ['never changes a call (${mode}): throwing meters and loggers'],
      ],
    ],
    async run() {
      const throwingMeter = new Proxy({}, { get: () => boom });
      const broken = [
        {
          meterProvider: { getMeter: () => throwingMeter },
          loggerProvider: { getLogger: () => ({ emit: boom }) },
        },
        { meterProvider: { getMeter: boom }, loggerProvider: { getLogger: boom } },
      ];
      let differ = 0;
      let n = 0;
      for (const mode of ['observe', 'normalise', 'reject']) {
        const reference = await outcomesOf({}, mode);
        for (const providers of broken) {
          n += 1_000;
          if ((await outcomesOf(providers, mode)) !== reference) differ += 1_000;
        }
      }
      return {
        figure: `${differ} of ${num(n)} outcomes differ from working telemetry`,
        data: { differ, n },
        ok: differ === 0,
      };
    },
  },
  {
    fault: 'The OTLP endpoint is gone (exporters pointed at a closed port)',
    expected:
      'Exports fail in the background; calls are unchanged, checks cost what they did, and no promise rejects unhandled.',
    proof: [
      [
        'packages/instrumentation/test/telemetry/faults.test.ts',
        'never changes a call, nor rejects unhandled, with OTLP exporters pointed at a closed port',
      ],
    ],
    async run() {
      const rejections = [];
      const onRejection = (r) => rejections.push(r);
      process.on('unhandledRejection', onRejection);
      const port = await closedPort();
      const meterProvider = new MeterProvider({
        readers: [
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter({
              url: `http://127.0.0.1:${port}/v1/metrics`,
              timeoutMillis: 200,
            }),
            exportIntervalMillis: 200,
            exportTimeoutMillis: 200,
          }),
        ],
      });
      const loggerProvider = new LoggerProvider({
        processors: [
          new BatchLogRecordProcessor({
            exporter: new OTLPLogExporter({
              url: `http://127.0.0.1:${port}/v1/logs`,
              timeoutMillis: 200,
            }),
            scheduledDelayMillis: 100,
          }),
        ],
      });
      // The healthy one exports nowhere: a pull reader, and records counted and dropped.
      const healthy = instrumented({ valueSets: refunds(), checkedArguments: CHECKED });
      const failing = instrumented(
        { valueSets: refunds(), checkedArguments: CHECKED },
        { meterProvider, loggerProvider },
      );
      await healthy.inst.ready();
      await failing.inst.ready();
      const args = CODES.map((reason_code) => ({ reason_code }));
      const { a: nsHealthy, b: nsFailing } = nsPerCallSideBySide(
        (i) => healthy.inst.check('refund_order', args[i % 6]),
        (i) => failing.inst.check('refund_order', args[i % 6]),
      );
      await meterProvider.forceFlush().catch(() => undefined);
      await loggerProvider.forceFlush().catch(() => undefined);
      await sleep(300);
      await settle();
      await healthy.close();
      await failing.close();
      process.off('unhandledRejection', onRejection);
      return {
        figure: `${rejections.length} unhandled rejections; check ${num(nsFailing)} ns with exports failing, ${num(nsHealthy)} ns without exporters (median, side by side)`,
        data: { rejections: rejections.length, nsFailing, nsHealthy },
        ok: rejections.length === 0,
      };
    },
  },
  {
    fault: '`redactValue` throws',
    expected:
      'Fail closed: the value is left out of the record; the record and the call are otherwise unchanged; one warning.',
    proof: [
      [
        'packages/instrumentation/test/logs/check-records.test.ts',
        'pass values through redactValue before truncation; undefined or a throw leaves the value out',
      ],
    ],
    async run() {
      const records = [];
      const keep = {
        onEmit: (record) => records.push(record.attributes),
        forceFlush: () => Promise.resolve(),
        shutdown: () => Promise.resolve(),
      };
      const t = instrumented(
        { valueSets: refunds(), checkedArguments: CHECKED, logSampleRatio: 1, redactValue: boom },
        { loggerProvider: new LoggerProvider({ processors: [keep] }) },
      );
      await t.inst.ready();
      const inputs = Array.from({ length: 1_000 }, (_, i) => ({
        reason_code: i % 2 ? 'LATE' : 'X',
      }));
      const changed = callsChanged(
        inputs.map((a) => t.inst.check('refund_order', a)),
        inputs,
      );
      await t.close();
      const withValue = records.filter((attributes) => 'value' in attributes).length;
      return {
        figure: `${num(records.length)} records, ${withValue} with a value; ${changed} of 1,000 calls changed`,
        data: { records: records.length, withValue, changed },
        ok: withValue === 0 && changed === 0 && records.length === 1_000,
      };
    },
  },
];

/** Arguments built to break a checker. */
function hostileArguments() {
  const throwing = {};
  Object.defineProperty(throwing, 'reason_code', { enumerable: true, get: boom });
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cyclic = { reason_code: 'LATE' };
  cyclic.self = cyclic;
  return [
    ['a getter that throws', throwing],
    [
      'a Proxy whose every trap throws',
      new Proxy(
        {},
        {
          get: boom,
          has: boom,
          ownKeys: boom,
          getOwnPropertyDescriptor: boom,
          getPrototypeOf: boom,
        },
      ),
    ],
    ['a revoked Proxy', revoked.proxy],
    ['a cyclic object', cyclic],
    ['JSON text that is not JSON', '{"reason_code": "LATE"'],
    ['a Symbol value', { reason_code: Symbol('LATE') }],
    ['a BigInt value', { reason_code: 10n }],
    ['a function value', { reason_code: () => 'LATE' }],
    ['null arguments', null],
    ['an array for arguments', ['LATE']],
  ];
}

/** Random JSON-like argument trees (seeded). */
function randomTree(random, depth = 0) {
  const r = random();
  if (depth > 3 || r < 0.3) {
    const leaves = [
      'LATE',
      'late',
      '',
      '__proto__',
      'constructor',
      'x'.repeat(300),
      0,
      -1,
      1e308,
      true,
      false,
      null,
      'ℒ𝒜𝒯ℰ',
      '\ud800',
    ];
    return leaves[Math.floor(random() * leaves.length)];
  }
  if (r < 0.6)
    return Array.from({ length: Math.floor(random() * 4) }, () => randomTree(random, depth + 1));
  const keys = ['reason_code', 'items', 'warehouse_code', '__proto__', 'toString'];
  const out = {};
  for (let k = 0; k < 1 + Math.floor(random() * 3); k++) {
    Object.defineProperty(out, keys[Math.floor(random() * keys.length)], {
      value: randomTree(random, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

export const adversarial = [
  {
    fault:
      'Arguments built to break the checker: throwing getters, hostile and revoked Proxies, cycles, Symbols, BigInts, functions, broken JSON text',
    expected:
      'No exception ever reaches the caller; the call goes out untouched; no findings where nothing could be read.',
    proof: [
      ['packages/core/test/checker/membership.test.ts', 'survives arguments whose getters throw'],
      [
        'packages/core/test/checker/properties.test.ts',
        'never throws, never mutates, and every mismatch has exactly one shape',
      ],
    ],
    async run() {
      const provider = createValueSetProvider({ sources: refunds() });
      await provider.ready();
      let threw = 0;
      let changed = 0;
      const cases = hostileArguments();
      for (const mode of ['observe', 'normalise', 'reject']) {
        const checker = createArgumentChecker({
          valueSets: provider,
          checkedArguments: CHECKED,
          mode,
        });
        for (const [, args] of cases) {
          try {
            const o = checker.check('refund_order', args);
            if (o.args !== args || (o.action === 'reject' && o.findings.length === 0)) changed += 1;
          } catch {
            threw += 1;
          }
        }
      }
      provider.close();
      return {
        figure: `${threw} exceptions and ${changed} changed calls over ${cases.length} kinds × 3 modes`,
        data: { threw, changed, kinds: cases.map(([k]) => k) },
        ok: threw === 0,
      };
    },
  },
  {
    fault:
      'Random argument trees (seeded): prototype keys, empty strings, lone surrogates, long strings, nesting',
    expected: 'Never throws, never mutates its input; every mismatch has exactly one shape.',
    proof: [
      [
        'packages/core/test/checker/properties.test.ts',
        'never throws, never mutates, and every mismatch has exactly one shape',
      ],
      [
        'packages/core/test/match/robustness.test.ts',
        'handles lone surrogates in values and members without throwing',
      ],
    ],
    async run() {
      const { provider, checker } = await refundsChecker({
        checkedArguments: { t: { reason_code: 'refunds', 'items[].warehouse_code': 'refunds' } },
        mode: 'normalise',
      });
      const random = seededRandom(99);
      let threw = 0;
      let mutated = 0;
      let shapeless = 0;
      const N = 20_000;
      for (let i = 0; i < N; i++) {
        const args = randomTree(random);
        const before = JSON.stringify(args);
        try {
          const o = checker.check('t', args);
          for (const f of o.findings)
            if (f.status === 'checked' && !f.inSet && !f.shape) shapeless += 1;
        } catch {
          threw += 1;
        }
        if (JSON.stringify(args) !== before) mutated += 1;
      }
      provider.close();
      return {
        figure: `${threw} exceptions, ${mutated} mutated inputs, ${shapeless} mismatches without a shape in ${num(N)} trees`,
        data: { threw, mutated, shapeless, n: N },
        ok: threw + mutated + shapeless === 0,
      };
    },
  },
  {
    fault: 'Prototype keys as values (`__proto__`, `constructor`, `toString`, `hasOwnProperty`)',
    expected:
      'Never members unless the owner lists them; they are classified like any other string.',
    proof: [
      [
        'packages/core/test/match/robustness.test.ts',
        'never treats prototype keys as members unless listed',
      ],
      [
        'packages/core/test/checker/membership.test.ts',
        'treats prototype keys as values like any other string',
      ],
    ],
    async run() {
      const { provider, checker } = await refundsChecker();
      const keys = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
      const inSet = keys.filter(
        (k) => checker.check('refund_order', { reason_code: k }).findings[0]?.inSet,
      ).length;
      provider.close();
      return { figure: `${inSet} of ${keys.length} in set`, data: { inSet }, ok: inSet === 0 };
    },
  },
  {
    fault: 'A 10 MB string as the value, in reject mode',
    expected:
      'Classified `invented` without being examined; the repair message quotes a short prefix and stays bounded.',
    proof: [
      [
        'packages/core/test/match/robustness.test.ts',
        'classifies a 10 MB string as invented, with no suggestions',
      ],
    ],
    async run() {
      const { provider, checker } = await refundsChecker({ mode: 'reject' });
      const value = 'LATE'.repeat(2_500_000);
      const t0 = nowNs();
      const o = checker.check('refund_order', { reason_code: value });
      const ms = (nowNs() - t0) / 1e6;
      provider.close();
      return {
        figure: `\`${o.findings[0].shape}\` in ${num(ms, 2)} ms; repair message ${num(o.repairMessage.length)} characters`,
        data: { ms, shape: o.findings[0].shape, message: o.repairMessage.length },
        ok: o.findings[0].shape === 'invented' && o.repairMessage.length <= 1_000,
      };
    },
  },
  {
    fault: 'An array path with 100,000 elements (`items[].warehouse_code`)',
    expected: 'Every element is checked; cost grows with the elements, not with anything else.',
    proof: [
      [
        'packages/core/test/checker/membership.test.ts',
        'checks every element of an array path and nested properties',
      ],
    ],
    async run() {
      const { provider, checker } = await refundsChecker({
        checkedArguments: { transfer_stock: { 'items[].warehouse_code': 'refunds' } },
      });
      const items = Array.from({ length: 100_000 }, (_, i) => ({
        warehouse_code: i % 10 ? 'LATE' : 'NOPE',
      }));
      checker.check('transfer_stock', { items: items.slice(0, 1_000) });
      const t0 = nowNs();
      const o = checker.check('transfer_stock', { items });
      const ms = (nowNs() - t0) / 1e6;
      provider.close();
      return {
        figure: `${num(o.findings.length)} findings in ${num(ms)} ms (${num((ms * 1e6) / items.length)} ns per element)`,
        data: { findings: o.findings.length, ms },
        ok: o.findings.length === items.length,
      };
    },
  },
];

export const floods = [
  {
    fault:
      'A cardinality flood: 200,000 distinct invented values, and model-invented tool and argument names',
    expected:
      'No new series (attribute values come only from configuration); the values appear only in sampled log records (1 in 50).',
    proof: [
      [
        'packages/instrumentation/test/cardinality-flood.test.ts',
        '100,000 distinct invented values add no series; values appear only in sampled log records',
      ],
      [
        'packages/instrumentation/test/telemetry/check-counters.test.ts',
        'never give a tool or argument the configuration does not name a series',
      ],
      [
        'docs/benchmarks.md',
        'Memory under a cardinality flood (1,000,000 values, `npm run bench`)',
        ['## Memory under a cardinality flood'],
      ],
    ],
    async run() {
      const t = instrumented({
        valueSets: refunds(),
        checkedArguments: CHECKED,
        random: seededRandom(5),
      });
      await t.inst.ready();
      t.inst.check('refund_order', { reason_code: 'WARMUP' });
      const before = (await t.collect()).series;
      const emittedBefore = t.logs.emitted;
      const N = 200_000;
      for (let i = 0; i < N; i++) {
        const v = `INVENTED_${i.toString(36)}`;
        t.inst.check('refund_order', { reason_code: v, [v]: v });
        if (i % 100 === 0) t.inst.check(`tool_${v}`, { reason_code: v });
      }
      const after = (await t.collect()).series;
      const records = t.logs.emitted - emittedBefore;
      await t.close();
      const added = Object.keys(after).reduce((n, k) => n + after[k] - (before[k] ?? 0), 0);
      return {
        figure: `${added} series added; ${num(records)} log records for ${num(N)} values (1 in 50 is ${num(N / 50)})`,
        data: { added, records, before, after },
        ok: added === 0 && Math.abs(records - N / 50) < 5 * Math.sqrt(N * 0.02 * 0.98),
      };
    },
  },
  {
    fault: 'An MCP server whose catalog has 200 tools with string enums',
    expected:
      'At most `mcp.maxCheckedArguments` derived arguments are checked (and become series); the rest are skipped, said once.',
    proof: [
      [
        'packages/instrumentation/test/catalog/derived-sets.test.ts',
        'checks at most maxCheckedArguments derived arguments, over all catalogs, and says so once each',
      ],
      [
        'packages/instrumentation/test/catalog/derive-catalog.test.ts',
        'caps derived arguments, keeping the same ones whatever order the server lists tools in',
      ],
    ],
    async run() {
      const t = instrumented({ mcp: { enabled: false, maxCheckedArguments: 20 } });
      const server = new McpServer({ name: 'big-catalog', version: '1.0.0' });
      for (let i = 0; i < 200; i++) {
        server.registerTool(
          `tool_${i}`,
          { inputSchema: { mode: z.enum([`A${i}`, `B${i}`, `C${i}`]) } },
          () => ({ content: [{ type: 'text', text: 'ok' }] }),
        );
      }
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'reliability', version: '1.0.0' });
      t.inst.instrumentMcpClient(client);
      await client.connect(clientSide);
      await client.listTools();
      for (let i = 0; i < 200; i++)
        await client.callTool({ name: `tool_${i}`, arguments: { mode: `X${i}` } });
      const { series, sum } = await t.collect();
      await client.close();
      await server.close();
      await t.close();
      return {
        figure: `${sum('tool_argument_value_check')} of 200 calls checked; ${series.tool_argument_value_check} \`tool_argument_value_check\` series (budget 20)`,
        data: { series, checked: sum('tool_argument_value_check') },
        ok: series.tool_argument_value_check === 20,
      };
    },
  },
];

/** An in-memory MCP server with `refund_order`, recording what reaches it. */
async function shop(inst) {
  const received = [];
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  server.registerTool(
    'refund_order',
    { inputSchema: { reason_code: z.string() } },
    ({ reason_code }) => {
      received.push(reason_code);
      return { content: [{ type: 'text', text: 'ok' }] };
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'reliability', version: '1.0.0' });
  inst(client);
  await client.connect(clientSide);
  return {
    client,
    received,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export const mcp = [
  {
    fault: 'Reject mode: the model emits values that are not members',
    expected:
      'The call resolves to a tool error carrying the repair message and never reaches the server; members and case variants (rewritten) do.',
    proof: [
      [
        'packages/instrumentation/test/mcp/modes.test.ts',
        'sends what the mode says, and a rejected call never reaches the server',
      ],
      [
        'packages/instrumentation/test/mcp/patch-client.test.ts',
        'resolves a rejection to a tool error without calling the server',
      ],
    ],
    async run() {
      const t = instrumented({ valueSets: refunds(), checkedArguments: CHECKED, mode: 'reject' });
      await t.inst.ready();
      const s = await shop((c) => t.inst.instrumentMcpClient(c));
      const values = ['LATE', 'late', 'CUSTOMER_UNHAPPY', 'DAMAGD'];
      let errors = 0;
      for (let i = 0; i < 400; i++) {
        const r = await s.client.callTool({
          name: 'refund_order',
          arguments: { reason_code: values[i % 4] },
        });
        if (r.isError) errors += 1;
      }
      const reached = s.received.length;
      const rewritten = s.received.filter((v) => v === 'LATE').length;
      await s.close();
      await t.close();
      return {
        figure: `${errors} of 400 calls rejected with a repair message; ${reached} reached the server (${rewritten} as \`LATE\`, case variants rewritten); none of the rejected`,
        data: { errors, reached, rewritten },
        ok: errors === 200 && reached === 200 && rewritten === 200,
      };
    },
  },
  {
    fault:
      'Reject mode through `client.experimental.tasks.callToolStream()` (SDK 1.x), which bypasses `callTool`',
    expected:
      'Checked like `callTool`: a rejected call streams one `result` message carrying the repair message and never reaches the server; members and case variants (rewritten) do.',
    proof: [
      [
        'packages/instrumentation/test/mcp/call-tool-stream.test.ts',
        'checks each call once with the client’s derived sets; a rejection never reaches the server',
      ],
    ],
    async run() {
      const t = instrumented({ valueSets: refunds(), checkedArguments: CHECKED, mode: 'reject' });
      await t.inst.ready();
      const s = await shop((c) => t.inst.instrumentMcpClient(c));
      const values = ['LATE', 'late', 'CUSTOMER_UNHAPPY', 'DAMAGD'];
      let errors = 0;
      let messages = 0;
      for (let i = 0; i < 400; i++) {
        const stream = s.client.experimental.tasks.callToolStream({
          name: 'refund_order',
          arguments: { reason_code: values[i % 4] },
        });
        for await (const m of stream) {
          messages += 1;
          if (m.type === 'result' && m.result.isError) errors += 1;
        }
      }
      const reached = s.received.length;
      const rewritten = s.received.filter((v) => v === 'LATE').length;
      const counted = (await t.collect()).sum('tool_argument_value_check');
      await s.close();
      await t.close();
      return {
        figure: `${errors} of 400 streamed calls rejected with a repair message (${messages} messages in all); ${reached} reached the server (${rewritten} as \`LATE\`); ${counted} checks counted`,
        data: { errors, messages, reached, rewritten, counted },
        ok:
          errors === 200 &&
          messages === 400 &&
          reached === 200 &&
          rewritten === 200 &&
          counted === 400,
      };
    },
  },
  {
    fault: 'A client patched twice (through its prototype and by `instrumentMcpClient`)',
    expected: 'Each call is checked and counted once.',
    proof: [
      [
        'packages/instrumentation/test/mcp/auto-patch-cjs.test.ts',
        'counts a call once on a client patched through its prototype and by instrumentMcpClient',
      ],
    ],
    async run() {
      const t = instrumented({ valueSets: refunds(), checkedArguments: CHECKED });
      await t.inst.ready();
      const s = await shop((c) => {
        t.inst.instrumentMcpClient(c);
        t.inst.instrumentMcpClient(c);
      });
      for (let i = 0; i < 100; i++)
        await s.client.callTool({ name: 'refund_order', arguments: { reason_code: 'LATE' } });
      const counted = (await t.collect()).sum('tool_argument_value_check');
      await s.close();
      await t.close();
      return {
        figure: `${counted} checks counted for 100 calls`,
        data: { counted },
        ok: counted === 100,
      };
    },
  },
];
