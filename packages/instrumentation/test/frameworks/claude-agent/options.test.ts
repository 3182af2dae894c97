/**
 * `inst.claudeAgentOptions(options)` and the hook it adds, without the SDK:
 * what the options become, and that the hook never throws into the SDK and
 * fails open whatever it is handed. These run in `npm test` on every Node the
 * package supports; the SDK's own runs are in the other files here.
 */
import { expect } from 'chai';
import { DiagLogLevel } from '@opentelemetry/api';
import { captureDiag } from '@argcheck/testing/diag';
import { ToolArgumentInstrumentation } from '../../../src/instrumentation.js';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import {
  ATTR_COVERAGE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_INTEGRATION,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_CALL,
} from '../../../src/semconv.js';
import type { ClaudeAgentHookMatcher } from '../../../src/types.js';
import { REFUND_ARGUMENTS, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';

interface Options {
  model?: string;
  hooks?: Record<string, unknown[]>;
  [key: string]: unknown;
}

const hookOf = (options: Options) =>
  (options.hooks?.PreToolUse?.[0] as ClaudeAgentHookMatcher).hooks[0];

/** A `PreToolUse` input as the SDK's binary sends it. */
function input(toolInput: unknown, name = 'mcp__shop__refund_order'): Record<string, unknown> {
  return {
    session_id: 's-1',
    transcript_path: '/dev/null',
    cwd: '/',
    hook_event_name: 'PreToolUse',
    tool_name: name,
    tool_input: toolInput,
    tool_use_id: 'toolu_1',
  };
}

const signal = { signal: new AbortController().signal };

/** An object every read of which throws. */
const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('hostile');
    },
    has() {
      throw new Error('hostile');
    },
    ownKeys() {
      throw new Error('hostile');
    },
  },
);

describe('Claude Agent SDK — the options and the hook, without the SDK', () => {
  let h: Harness;
  beforeEach(async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
      frameworks: { enabled: false },
    });
    await h.inst.ready();
  });
  afterEach(() => h.close());

  it('puts its matcher first and keeps the application’s hooks and options; the options given are not changed', () => {
    const theirs = { matcher: 'Bash', hooks: [() => Promise.resolve({})] };
    const stop = { hooks: [() => Promise.resolve({})] };
    const given: Options = {
      model: 'claude-x',
      hooks: { PreToolUse: [theirs], Stop: [stop] },
      allowedTools: ['mcp__shop__refund_order'],
    };
    const options = h.inst.claudeAgentOptions(given);
    expect(options).to.not.equal(given);
    expect(given.hooks).to.deep.equal({ PreToolUse: [theirs], Stop: [stop] });
    expect(options.model).to.equal('claude-x');
    expect(options.allowedTools).to.equal(given.allowedTools);
    expect(options.hooks?.Stop).to.deep.equal([stop]);
    const pre = options.hooks?.PreToolUse ?? [];
    expect(pre).to.have.length(2);
    expect((pre[0] as ClaudeAgentHookMatcher).matcher).to.equal('mcp__.*');
    expect(pre[1]).to.equal(theirs);
  });

  it('adds its hook once per instance: options that carry it come back as they are; another instance adds its own', async () => {
    const once = h.inst.claudeAgentOptions<Options>({});
    expect(h.inst.claudeAgentOptions(once)).to.equal(once);
    const other = harness({ valueSets: refundSources(), checkedArguments: REFUND_ARGUMENTS });
    try {
      expect(other.inst.claudeAgentOptions(once).hooks?.PreToolUse).to.have.length(2);
    } finally {
      await other.close();
    }
    expect(h.inst.claudeAgentOptions<Options>().hooks?.PreToolUse).to.have.length(1);
  });

  it('answers each mode’s way: nothing, updatedInput without a permission decision, or a deny with the repair message', async () => {
    const hook = hookOf(h.inst.claudeAgentOptions({}));
    expect(
      await hook(input({ order_id: 'o-1', reason_code: 'DAMAGED' }), 'toolu_1', signal),
    ).to.deep.equal({});
    expect(
      await hook(input({ order_id: 'o-2', reason_code: 'damaged' }), 'toolu_2', signal),
    ).to.deep.equal({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: { order_id: 'o-2', reason_code: 'DAMAGED' },
      },
    });
    const denied = await hook(
      input({ order_id: 'o-3', reason_code: 'CUSTOMER_UNHAPPY' }),
      'toolu_3',
      signal,
    );
    expect(denied.hookSpecificOutput?.permissionDecision).to.equal('deny');
    expect(denied.hookSpecificOutput?.permissionDecisionReason).to.include(
      '"reason_code" must be one of: "DAMAGED", "DUPLICATE_CHARGE", "LATE", "NOT_AS_DESCRIBED"',
    );
  });

  it('fails open on anything it is handed, never throwing into the SDK, and counts only MCP tool calls', async () => {
    const hook = hookOf(h.inst.claudeAgentOptions({}));
    const inputs: unknown[] = [
      undefined,
      null,
      42,
      'PreToolUse',
      [],
      hostile,
      { ...input({}), tool_name: 7 },
      input(hostile),
      input('{"order_id":"o-1"'),
      input({ reason_code: 'DAMAGED' }, 'Bash'),
      Object.defineProperty(input({}), 'tool_name', {
        get() {
          throw new Error('hostile getter');
        },
      }),
    ];
    for (const given of inputs) {
      expect(await hook(given, hostile, hostile)).to.deep.equal({});
    }
    // The MCP tool's two calls are counted: arguments that cannot be read (nothing to
    // check), and a JSON text cut short (`unreadable`: the check could not run).
    const call = (coverage: string) => ({
      attributes: {
        [ATTR_TOOL]: 'refund_order',
        [ATTR_INTEGRATION]: 'claude_agent',
        [ATTR_COVERAGE]: coverage,
      },
      value: 1,
    });
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal([
      call('none'),
      call('unavailable'),
    ]);
  });

  it('passes every call straight on while the instrumentation is disabled', async () => {
    const hook = hookOf(h.inst.claudeAgentOptions({}));
    h.inst.disable();
    expect(
      await hook(input({ order_id: 'o-3', reason_code: 'CUSTOMER_UNHAPPY' }), 'toolu_3', signal),
    ).to.deep.equal({});
    h.inst.enable();
    expect(
      (await hook(input({ order_id: 'o-3', reason_code: 'CUSTOMER_UNHAPPY' }), 'toolu_3', signal))
        .hookSpecificOutput?.permissionDecision,
    ).to.equal('deny');
  });

  it('attributes calls to the options’ model or ANTHROPIC_MODEL, the configured provider, the agent and a subagent', async () => {
    const attributed = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      attribution: { toolDefinition: false },
      frameworks: { enabled: false },
    });
    try {
      await attributed.inst.ready();
      const call = (options: Options, extra: Record<string, unknown> = {}) =>
        hookOf(attributed.inst.claudeAgentOptions(options))(
          { ...input({ order_id: 'o-1', reason_code: 'LATE' }), ...extra },
          'toolu_1',
          signal,
        );
      await call({ model: 'claude-a', env: { CLAUDE_CODE_USE_BEDROCK: '1' } });
      await call({ env: { ANTHROPIC_MODEL: 'claude-b', CLAUDE_CODE_USE_VERTEX: 'true' } });
      const agents = { triage: { description: 'd', prompt: 'p', model: 'claude-c' } };
      await call(
        { model: 'claude-a', env: {}, agent: 'support', agents },
        { agent_type: 'triage' },
      );
      await call({ model: 'claude-a', env: {}, agent: 'support', agents });
      const by = (model: string, provider: string, agent?: string) => ({
        attributes: {
          [ATTR_TOOL]: 'refund_order',
          [ATTR_INTEGRATION]: 'claude_agent',
          [ATTR_COVERAGE]: 'checked',
          [ATTR_GEN_AI_REQUEST_MODEL]: model,
          [ATTR_GEN_AI_PROVIDER_NAME]: provider,
          ...(agent === undefined ? {} : { [ATTR_GEN_AI_AGENT_NAME]: agent }),
        },
        value: 1,
      });
      expect(pointsOf(await attributed.collect(), METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal(
        [
          by('claude-a', 'aws.bedrock'),
          by('claude-b', 'gcp.vertex_ai'),
          by('claude-c', 'anthropic', 'triage'),
          by('claude-a', 'anthropic', 'support'),
        ].sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes))),
      );
    } finally {
      await attributed.close();
    }
  });

  it('leaves a version outside the supported range unpatched, and says so once', () => {
    const captured = captureDiag(DiagLogLevel.WARN);
    const patching = new ToolArgumentInstrumentation({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
    });
    try {
      const definition = patching
        .getModuleDefinitions()
        .find((d) => d.name === '@anthropic-ai/claude-agent-sdk') as {
        patch: (exports: unknown, version?: string) => unknown;
      };
      const query = () => 'original';
      const sdk = { query };
      expect(definition.patch(sdk, '0.2.114')).to.equal(sdk);
      expect(definition.patch(sdk, '0.4.0')).to.equal(sdk);
      expect(sdk.query).to.equal(query);
      expect(
        captured.messages
          .map((m) => m.message)
          .filter((m) => m.includes('outside the supported range')),
      ).to.deep.equal([
        '@argcheck/instrumentation argcheck: @anthropic-ai/claude-agent-sdk 0.2.114 is outside the supported range >=0.3.142 <0.4.0; its tool calls are not checked. Use a supported version, or the explicit entry point (docs/frameworks.md).',
      ]);
    } finally {
      patching.disable();
      patching.close();
      captured.restore();
    }
  });

  it('leaves options it cannot read as they are', () => {
    expect(h.inst.claudeAgentOptions(hostile)).to.equal(hostile);
    const odd = Object.defineProperty({}, 'hooks', {
      get() {
        throw new Error('hostile getter');
      },
    });
    expect(h.inst.claudeAgentOptions(odd)).to.equal(odd);
  });
});
