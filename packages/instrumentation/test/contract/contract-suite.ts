/**
 * The contract every integration keeps, held to each of them with the same
 * assertions: MCP on both SDK lines, LangChain.js, the OpenAI Agents SDK, the
 * AI SDK, Mastra and the Claude Agent SDK, each auto-patched and through its
 * explicit entry point.
 *
 * - In each mode, the tool receives, the model reads and the counters count
 *   the same, whatever the integration (the refund scenario).
 * - Every call argcheck saw is counted in `tool_argument_call`.
 * - A framework tool backed by MCP is counted once when the MCP call is the
 *   framework call itself (the same tool, the same arguments); any other MCP
 *   call inside a tool (another tool's name, a proxy, a second call) is
 *   checked and, in reject mode, never reaches the server with an invented value.
 * - Two instances both check; `disable()` switches an explicit entry point off
 *   and `enable()` on again.
 */
import { expect } from 'chai';
import type { CheckMode } from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Point } from '@argcheck/testing/metrics';
import {
  ATTR_COVERAGE,
  ATTR_INTEGRATION,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_CALL,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import type { ToolArgumentInstrumentationConfig } from '../../src/types.js';
import { inSet, REFUND_ARGUMENTS, refundSeries, refundSources } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import {
  CALLS,
  countersOf,
  expectedAnswers,
  expectedCounters,
  expectedReceived,
  MODES,
  repairMessage,
  toolAnswer,
} from '../frameworks/refund-scenario.js';
import { mcpShop, mcpText } from './subjects.js';
import type { Call, McpShop, Subject, ToolSpec } from './subjects.js';

type Entry = 'auto-patched' | 'explicit entry point';
const ENTRIES: readonly Entry[] = ['auto-patched', 'explicit entry point'];

/** The model's three refund calls, as the subjects take them. */
const REFUND_CALLS: Call[] = CALLS.map((c) => ({ id: c.id, tool: 'refund_order', args: c.args }));

/** `refund_order`, run in the process: records the reason code it received per order. */
function refundTool(received: Record<string, string>): ToolSpec {
  return {
    name: 'refund_order',
    shape: 'refund',
    run: (args) => {
      const a = args as { order_id: string; reason_code: string };
      received[a.order_id] = a.reason_code;
      return Promise.resolve(toolAnswer(a));
    },
  };
}

/** The instrumentation's configuration: the refund check, patches on only where `entry` says. */
function config(
  subject: Subject,
  entry: Entry,
  mode: CheckMode,
  mcpUnderneath = false,
): ToolArgumentInstrumentationConfig {
  const auto = entry === 'auto-patched';
  return {
    valueSets: refundSources(),
    checkedArguments: REFUND_ARGUMENTS,
    mode,
    clock: new ManualClock(),
    mcp: {
      enabled: auto && (subject.integration === 'mcp' || mcpUnderneath),
      deriveValueSets: false,
    },
    frameworks: { enabled: auto && subject.integration !== 'mcp', deriveValueSets: false },
  };
}

/** The non-zero `tool_argument_call` points of one integration that saw `refunds` checked calls of `refund_order`. */
function callPoints(subject: Subject, refunds: number, extra: Point[] = []): Point[] {
  const point = (tool: string, coverage: string, value: number): Point => ({
    attributes: {
      [ATTR_TOOL]: tool,
      [ATTR_INTEGRATION]: subject.integration,
      [ATTR_COVERAGE]: coverage,
    },
    value,
  });
  return [point('refund_order', 'checked', refunds), ...extra];
}

/** The points of `name` that one integration counted. */
function ofIntegration(points: Point[], integration: string): Point[] {
  return points.filter((p) => p.attributes[ATTR_INTEGRATION] === integration);
}

/**
 * The subjects to run: all, or those whose integration `ARGCHECK_CONTRACT_ONLY`
 * names (comma-separated; `npm run test:versions` runs one framework's).
 */
function chosen(subjects: readonly Subject[]): readonly Subject[] {
  const only = (process.env.ARGCHECK_CONTRACT_ONLY ?? '').split(',').filter((s) => s !== '');
  return only.length === 0 ? subjects : subjects.filter((s) => only.includes(s.integration));
}

/**
 * Registers the contract as a suite named `title`, held to each of `subjects`:
 * mcp-langchain.test.ts for MCP and LangChain.js, frameworks-node22.test.ts for
 * the frameworks that need Node 22 (built and run where they are installed).
 */
export function describeContract(title: string, subjects: readonly Subject[]): void {
  describe(title, function () {
    contract(this, subjects);
  });
}

function contract(suite: Mocha.Suite, subjects: readonly Subject[]): void {
  suite.timeout(30_000);

  let repair: string;
  const open: Harness[] = [];
  const shops: McpShop[] = [];
  before(async () => {
    repair = await repairMessage();
  });
  afterEach(async () => {
    for (const shop of shops.splice(0)) await shop.close();
    for (const h of open.splice(0)) await h.close();
  });

  async function instrument(c: ToolArgumentInstrumentationConfig): Promise<Harness> {
    const h = harness(c);
    open.push(h);
    await h.inst.ready();
    return h;
  }

  for (const subject of chosen(subjects)) {
    describe(subject.name, () => {
      before(function () {
        const why = subject.unavailable();
        if (why !== undefined) {
          this.test!.parent!.title += ` (skipped: ${why})`;
          this.skip();
        }
      });

      for (const entry of ENTRIES) {
        describe(entry, () => {
          before(async function () {
            const why =
              entry === 'explicit entry point' ? await subject.explicitUnavailable() : undefined;
            if (why !== undefined) {
              this.test!.parent!.title += ` (skipped: ${why})`;
              this.skip();
            }
          });

          for (const run of subject.runs)
            for (const mode of MODES) {
              it(`${run}, ${mode}: the tool receives, the model reads and the counters count as the mode says`, async () => {
                const h = await instrument(config(subject, entry, mode));
                const received: Record<string, string> = {};
                const explicit = entry === 'auto-patched' ? undefined : h.inst;
                const answers = await subject.turn(
                  [refundTool(received)],
                  REFUND_CALLS,
                  explicit,
                  run,
                );
                expect(received).to.deep.equal(expectedReceived(mode));
                expect(answers).to.deep.equal(expectedAnswers(mode, repair));
                const collected = await h.collect();
                expect(countersOf(collected)).to.deep.equal(expectedCounters(mode));
                expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal(
                  callPoints(subject, 3),
                );
              });
            }

          it('disable() stops the check and enable() starts it again', async () => {
            const h = await instrument(config(subject, entry, 'reject'));
            const explicit = entry === 'auto-patched' ? undefined : h.inst;
            const invented = [REFUND_CALLS[2]!];
            h.inst.disable();
            const off: Record<string, string> = {};
            await subject.turn([refundTool(off)], invented, explicit);
            expect(off).to.deep.equal({ 'o-3': 'CUSTOMER_UNHAPPY' });
            h.inst.enable();
            await h.inst.ready();
            const on: Record<string, string> = {};
            const answers = await subject.turn([refundTool(on)], invented, explicit);
            expect(on).to.deep.equal({});
            expect(answers).to.deep.equal({ 'call-3': repair });
            expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal([
              { attributes: { [ATTR_TOOL]: 'refund_order' }, value: 1 },
            ]);
          });
        });
      }

      it('two instances both check every call; either one in reject mode keeps the invented value from the tool', async () => {
        const first = await instrument(config(subject, 'auto-patched', 'observe'));
        const second = await instrument(config(subject, 'auto-patched', 'observe'));
        const received: Record<string, string> = {};
        await subject.turn([refundTool(received)], REFUND_CALLS);
        expect(received).to.deep.equal(expectedReceived('observe'));
        for (const h of [first, second]) {
          expect(countersOf(await h.collect())).to.deep.equal(expectedCounters('observe'));
        }
        await first.close();
        await second.close();
        open.splice(0);

        for (const rejecting of [0, 1]) {
          const pair = [
            await instrument(
              config(subject, 'auto-patched', rejecting === 0 ? 'reject' : 'observe'),
            ),
            await instrument(
              config(subject, 'auto-patched', rejecting === 1 ? 'reject' : 'observe'),
            ),
          ];
          const got: Record<string, string> = {};
          const answers = await subject.turn([refundTool(got)], REFUND_CALLS);
          expect(got, `reject on instance ${rejecting + 1}`).to.not.have.property('o-3');
          expect(answers['call-3']).to.equal(repair);
          expect(
            pointsOf(await pair[rejecting]!.collect(), METRIC_TOOL_ARGUMENT_REPAIR_STARTED),
          ).to.deep.equal([{ attributes: { [ATTR_TOOL]: 'refund_order' }, value: 1 }]);
          for (const h of open.splice(0)) await h.close();
        }
      });

      if (!subject.framework) return;

      describe('with an MCP client underneath its tools', () => {
        for (const entry of ENTRIES) {
          for (const sdk of ['1', '2'] as const) {
            const title = `${entry}, MCP SDK ${sdk}.x`;

            /** The shop's `refund_order` on an MCP server, recording what reached it. */
            async function shopOf(h: Harness) {
              const atServer: Record<string, string>[] = [];
              const shop = await mcpShop(
                sdk,
                [
                  {
                    name: 'refund_order',
                    shape: 'refund',
                    run: (args) => {
                      atServer.push(args as Record<string, string>);
                      return Promise.resolve(
                        toolAnswer(args as { order_id: string; reason_code: string }),
                      );
                    },
                  },
                ],
                entry === 'auto-patched' ? undefined : h.inst,
              );
              shops.push(shop);
              const call = async (tool: string, args: Record<string, unknown>) =>
                mcpText(await shop.client.callTool({ name: tool, arguments: args }));
              return { atServer, call };
            }

            before(async function () {
              const why =
                entry === 'explicit entry point' ? await subject.explicitUnavailable() : undefined;
              if (why !== undefined) this.skip();
            });

            for (const mode of MODES) {
              it(`${title}, ${mode}: a tool that makes the same call over MCP is checked and counted once`, async () => {
                const h = await instrument(config(subject, entry, mode, true));
                const { atServer, call } = await shopOf(h);
                const backed: ToolSpec = {
                  name: 'refund_order',
                  shape: 'refund',
                  run: (args) => call('refund_order', args),
                };
                const answers = await subject.turn(
                  [backed],
                  REFUND_CALLS,
                  entry === 'auto-patched' ? undefined : h.inst,
                );
                const reached: Record<string, string | undefined> = {};
                for (const a of atServer) reached[a.order_id as string] = a.reason_code;
                expect(reached).to.deep.equal(expectedReceived(mode));
                expect(answers).to.deep.equal(expectedAnswers(mode, repair));
                const collected = await h.collect();
                expect(countersOf(collected)).to.deep.equal(expectedCounters(mode));
                // The MCP client saw the calls that ran; they were the framework's calls.
                expect(
                  ofIntegration(
                    pointsOf(collected, METRIC_TOOL_ARGUMENT_CALL),
                    subject.integration,
                  ),
                ).to.deep.equal(callPoints(subject, 3));
              });
            }

            it(`${title}, reject: no invented value reaches the server through another tool's name, a proxy tool or a second call`, async () => {
              const h = await instrument(config(subject, entry, 'reject', true));
              const { atServer, call } = await shopOf(h);
              const tools: ToolSpec[] = [
                { name: 'refund', shape: 'refund', run: (args) => call('refund_order', args) },
                {
                  name: 'call_mcp_tool',
                  shape: 'proxy',
                  run: (args) =>
                    call(args.tool as string, args.arguments as Record<string, unknown>),
                },
                {
                  name: 'refund_order',
                  shape: 'refund',
                  run: async (args) => {
                    await call('refund_order', args);
                    return call('refund_order', { ...args, reason_code: 'INVENTED' });
                  },
                },
              ];
              const answers = await subject.turn(
                tools,
                [
                  {
                    id: 'a',
                    tool: 'refund',
                    args: { order_id: 'o-1', reason_code: 'CUSTOMER_UNHAPPY' },
                  },
                  {
                    id: 'b',
                    tool: 'call_mcp_tool',
                    args: {
                      tool: 'refund_order',
                      arguments: { order_id: 'o-2', reason_code: 'INVENTED' },
                    },
                  },
                  {
                    id: 'c',
                    tool: 'refund_order',
                    args: { order_id: 'o-3', reason_code: 'DAMAGED' },
                  },
                ],
                entry === 'auto-patched' ? undefined : h.inst,
              );
              expect(atServer).to.deep.equal([{ order_id: 'o-3', reason_code: 'DAMAGED' }]);
              // Each inner rejection reaches the model as the tool's answer: the repair message.
              expect(answers.a).to.include('CUSTOMER_UNHAPPY');
              expect(answers.b).to.include('INVENTED');
              expect(answers.c).to.include('INVENTED');
              expect(
                pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_REPAIR_STARTED),
              ).to.deep.equal([{ attributes: { [ATTR_TOOL]: 'refund_order' }, value: 3 }]);
            });

            it(`${title}, observe: invented values sent from inside tools are each counted`, async () => {
              const h = await instrument(config(subject, entry, 'observe', true));
              const { atServer, call } = await shopOf(h);
              const tools: ToolSpec[] = [
                { name: 'refund', shape: 'refund', run: (args) => call('refund_order', args) },
                {
                  name: 'refund_order',
                  shape: 'refund',
                  run: async (args) => {
                    await call('refund_order', args);
                    return call('refund_order', args);
                  },
                },
              ];
              const invented = { reason_code: 'CUSTOMER_UNHAPPY' };
              await subject.turn(
                tools,
                [
                  { id: 'a', tool: 'refund', args: { order_id: 'o-1', ...invented } },
                  { id: 'b', tool: 'refund_order', args: { order_id: 'o-2', ...invented } },
                ],
                entry === 'auto-patched' ? undefined : h.inst,
              );
              expect(atServer).to.have.length(3);
              // One for the inner call of `refund`, two for `refund_order`: the framework's and the second MCP call.
              expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
                { attributes: refundSeries(inSet(false, false)), value: 3 },
              ]);
            });
          }
        }
      });
    });
  }
}
