import { expect } from 'chai';
import { diag, DiagLogLevel } from '@opentelemetry/api';
import type { DiagLogger } from '@opentelemetry/api';
import { staticValueSet } from '@argcheck/core';
import type { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import type { McpHost } from '../../src/internal-types.js';
import {
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE,
} from '../../src/semconv.js';
import { FakeClock } from '../helpers/fake-clock.js';
import {
  inSet,
  REFUND_ARGUMENTS,
  refundSeries,
  refundSources,
  REFUNDS,
  series,
  setSeries,
} from '../helpers/fixtures.js';
import { harness, pointsOf } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';

// The host is what src/mcp/ is given; tests reach it the same way.
const hostOf = (inst: ToolArgumentInstrumentation): McpHost =>
  (inst as unknown as { mcpHost(): McpHost }).mcpHost();

const PRIORITY = 'mcp:create_ticket.priority';
const catalog = (priorities = ['low', 'high']) => ({
  checkedArguments: { create_ticket: { priority: PRIORITY } },
  sets: { [PRIORITY]: priorities },
});
const priority = (extra: Record<string, string>) =>
  series('create_ticket', 'priority', PRIORITY, extra);

function warnings(): { messages: string[]; restore(): void } {
  const messages: string[] = [];
  const logger: DiagLogger = {
    error: (...args: unknown[]) => messages.push(args.map(String).join(' ')),
    warn: (...args: unknown[]) => messages.push(args.map(String).join(' ')),
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  };
  diag.setLogger(logger, DiagLogLevel.WARN);
  return { messages, restore: () => diag.disable() };
}

describe('MCP host: engines over derived catalogs', () => {
  let h: Harness;
  let host: McpHost;
  beforeEach(async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new FakeClock(),
      mcp: { enabled: false, maxCheckedArguments: 3 },
    });
    host = hostOf(h.inst);
    await h.inst.ready();
  });
  afterEach(() => h.close());

  it('exposes the configuration', () => {
    expect(host.mode).to.equal('observe');
    expect(host.configuredArguments).to.deep.equal(REFUND_ARGUMENTS);
    expect(host.deriveValueSets).to.equal(true);
    expect(host.maxCheckedArguments).to.equal(3);
    expect(host.configured.check('refund_order', { reason_code: 'LATE' }).findings).to.have.length(
      1,
    );
  });

  it('checks derived arguments against the catalog members once ready, with series from the catalog', async () => {
    const engine = host.deriveEngine({}, catalog());
    await engine.ready();
    expect(engine.check('create_ticket', { priority: 'urgent' }).findings).to.deep.include({
      argument: 'priority',
      set: PRIORITY,
      value: 'urgent',
      status: 'checked',
      inSet: false,
      inSetNormalised: false,
      shape: 'invented',
    });
    engine.check('create_ticket', { priority: 'low' });
    engine.check('refund_order', { reason_code: 'LATE' });
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: priority(inSet(false, false)), value: 1 },
      { attributes: priority(inSet(true, true)), value: 1 },
      { attributes: refundSeries(inSet(true, true)), value: 1 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE)).to.deep.equal([
      { attributes: setSeries(PRIORITY, 'static'), value: 2 },
      { attributes: setSeries(REFUNDS, 'static'), value: 4 },
    ]);
  });

  it('keeps checking with the previous catalog until the new one is ready, then swaps', async () => {
    const key = {};
    const engine = host.deriveEngine(key, catalog(['low']));
    expect(engine.check('create_ticket', { priority: 'low' }).findings).to.deep.equal([]);
    await engine.ready();
    expect(host.deriveEngine(key, catalog(['low', 'high']))).to.equal(engine);
    const before = engine.check('create_ticket', { priority: 'high' }).findings[0];
    expect(before).to.include({ status: 'checked', inSet: false });
    await engine.ready();
    const after = engine.check('create_ticket', { priority: 'high' }).findings[0];
    expect(after).to.include({ status: 'checked', inSet: true });
  });

  it('leaves arguments the configuration names, and sets named like configured ones, to the configuration', async () => {
    const engine = host.deriveEngine(
      {},
      {
        checkedArguments: { refund_order: { reason_code: 'mcp:other' }, ship: { code: REFUNDS } },
        sets: { 'mcp:other': ['X'], [REFUNDS]: ['ONLY_IN_CATALOG'] },
      },
    );
    await engine.ready();
    expect(engine.check('refund_order', { reason_code: 'LATE' }).findings[0]).to.include({
      set: REFUNDS,
      inSet: true,
    });
    expect(engine.check('ship', { code: 'LATE' }).findings[0]).to.include({
      set: REFUNDS,
      inSet: true,
    });
    expect(engine.check('ship', { code: 'ONLY_IN_CATALOG' }).findings[0]).to.include({
      inSet: false,
    });
  });

  it('checks at most maxCheckedArguments derived arguments and says so once', async () => {
    const diagnostics = warnings();
    try {
      const many = (n: number, prefix: string) => {
        const paths: Record<string, string> = {};
        for (let i = 0; i < n; i++) paths[`${prefix}${i}`] = PRIORITY;
        return { checkedArguments: { wide: paths }, sets: { [PRIORITY]: ['low'] } };
      };
      const engine = host.deriveEngine({}, many(5, 'a'));
      await engine.ready();
      host.deriveEngine({}, many(5, 'b'));
      const args = { a0: 'x', a1: 'x', a2: 'x', a3: 'x', a4: 'x' };
      expect(engine.check('wide', args).findings.map((f) => f.argument)).to.deep.equal([
        'a0',
        'a1',
        'a2',
      ]);
      const budget = diagnostics.messages.filter((m) => m.includes('maxCheckedArguments'));
      expect(budget).to.have.length(1);
      expect(budget[0]).to.include('2 argument(s)');
      const collected = await h.collect();
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.have.length(3);
    } finally {
      diagnostics.restore();
    }
  });

  it('skips derived arguments it cannot check and never writes to prototypes', async () => {
    const engine = host.deriveEngine(
      {},
      {
        // JSON.parse makes `__proto__` an own property, as a server's JSON would.
        checkedArguments: JSON.parse(
          JSON.stringify({
            create_ticket: { 'bad[path': PRIORITY, priority: PRIORITY, other: 'mcp:missing' },
          }).replace('{', `{"__proto__":{"__proto__":"${PRIORITY}"},`),
        ) as Record<string, Record<string, string>>,
        sets: { [PRIORITY]: ['low'], 'mcp:empty': [] },
      },
    );
    await engine.ready();
    expect(Object.prototype).not.to.have.property('__proto__', PRIORITY);
    expect(engine.check('create_ticket', { priority: 'x', other: 'y' }).findings).to.have.length(1);
    const hostile = JSON.parse('{"__proto__":"x"}') as unknown;
    expect(engine.check('__proto__', hostile).findings).to.deep.include({
      argument: '__proto__',
      set: PRIORITY,
      value: 'x',
      status: 'checked',
      inSet: false,
      inSetNormalised: false,
      shape: 'invented',
    });
  });

  it('follows setConfig: engines already handed out use the new configuration', async () => {
    const engine = host.deriveEngine({}, catalog());
    await engine.ready();
    h.inst.setConfig({
      ...h.inst.getConfig(),
      mode: 'reject',
      valueSets: { [REFUNDS]: staticValueSet(['LATE']) },
    });
    expect(host.mode).to.equal('reject');
    engine.check('create_ticket', { priority: 'urgent' });
    await engine.ready();
    await h.inst.ready();
    expect(engine.check('create_ticket', { priority: 'urgent' }).action).to.equal('reject');
    expect(h.inst.check('refund_order', { reason_code: 'DAMAGED' }).action).to.equal('reject');
  });
});
