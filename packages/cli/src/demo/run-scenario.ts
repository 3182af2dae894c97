import type { CheckMode } from '@argcheck/core';
import type { Agent } from './agent.js';
import { phaseAt, phaseIndexAt, type ScenarioTiming } from './scenario.js';
import { TOOLS, type ToolName } from './tools.js';
import type { RouteName } from './traffic.js';

/** What the agent sees of a tool result. */
export interface ToolReply {
  isError: boolean;
  text: string;
}

/** Calls a tool through the (instrumented) MCP client of the server `route` reads. */
export type CallTool = (
  tool: ToolName,
  args: Record<string, unknown>,
  route: RouteName,
) => Promise<ToolReply>;

/** A call refused with a repair message, and what the agent did with it (`reject` mode). */
export interface RepairExample {
  tool: ToolName;
  route: RouteName;
  /** The call's index in the run. */
  call: number;
  /** The arguments the agent sent first. */
  sent: Record<string, unknown>;
  /** The tool result the model read: argcheck's repair message. */
  message: string;
  /** The arguments of the agent's second attempt, chosen from the message. */
  retried: Record<string, unknown>;
  /** Whether the second attempt went through. */
  retryAccepted: boolean;
}

/** Per tool, what the agent's calls came to. */
export interface ToolTally {
  /** Calls the agent planned (first attempts). */
  planned: number;
  /** Calls sent through the client, retries included: each one is checked. */
  attempts: number;
  /** Calls that ended in a successful result, after a retry or not. */
  succeeded: number;
  /** First attempts refused with a repair message (`reject` mode). */
  rejected: number;
  /** Second attempts, after a repair message, that succeeded. */
  repaired: number;
  /** Error results from the server itself (a non-string where it takes a string). */
  serverErrors: number;
}

/** How far behind schedule the calls may fall before the schedule moves, in milliseconds. */
const MAX_LAG_MS = 20;

export interface ScenarioClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface RunScenarioOptions {
  timing: ScenarioTiming;
  agent: Agent;
  mode: CheckMode;
  callTool: CallTool;
  clock: ScenarioClock;
  /** Runs first for each call, with its index: the demo moves its call clock there. */
  beforeCall?(callIndex: number): Promise<void>;
  /** Runs before the first call of each phase: owner events, snapshots. */
  onPhase(phaseIndex: number): Promise<void>;
  /** Runs after each call, with the number of calls done so far. */
  onProgress?(callsDone: number): Promise<void> | void;
  /** Filled in as the calls are made, so that progress hooks can read them. */
  tallies?: Record<ToolName, ToolTally>;
  /** Stops the run early (Ctrl-C); the calls made so far stay counted. */
  signal?: AbortSignal;
  /**
   * Runs one turn of the agent — a call and, in `reject` mode, its retry —
   * on its route (the demo: under the route's model). Default: just runs it.
   */
  turn?: <T>(route: RouteName, fn: () => Promise<T>) => Promise<T>;
  /** Receives the first refused call of each tool, with its repair message. */
  onRepair?(example: RepairExample): void;
}

export function emptyTallies(): Record<ToolName, ToolTally> {
  const tally = (): ToolTally => ({ planned: 0, attempts: 0, succeeded: 0, rejected: 0, repaired: 0, serverErrors: 0 });
  return Object.fromEntries(TOOLS.map((tool) => [tool, tally()])) as Record<ToolName, ToolTally>;
} // prettier-ignore

/**
 * Plays the story: `totalCalls` calls spread evenly over `durationMs`, each
 * phase's profile from its share of the calls on. Which calls are made
 * depends on the seed alone; the wall clock only paces them, so a slow
 * machine takes longer but replays the same calls, and every stretch lasts at
 * least its planned time.
 */
export async function runScenario(
  options: RunScenarioOptions,
): Promise<Record<ToolName, ToolTally>> {
  const { timing, agent, mode, callTool, clock } = options;
  const tallies = options.tallies ?? emptyTallies();
  let start = clock.now();
  let phaseIndex = -1;
  const repairsShown = new Set<ToolName>();
  for (let i = 0; i < timing.totalCalls && !options.signal?.aborted; i += 1) {
    await options.beforeCall?.(i);
    const due = phaseIndexAt(i, timing.totalCalls);
    while (phaseIndex < due) {
      phaseIndex += 1;
      await options.onPhase(phaseIndex);
    }
    const wait = start + (i / timing.totalCalls) * timing.durationMs - clock.now();
    if (wait > 0) await clock.sleep(wait);
    // Behind schedule (a slow machine, a long pause), the run is shifted rather
    // than hurried: a burst of catch-up calls would shorten the stretches the
    // story needs to last, such as an outage outliving TTL + stale allowance.
    else if (-wait > MAX_LAG_MS) start += -wait - MAX_LAG_MS;

    const call = agent.next(phaseAt(phaseIndex).profile);
    const tally = tallies[call.tool];
    tally.planned += 1;
    tally.attempts += 1;
    const turn = options.turn ?? ((_route, fn) => fn());
    await turn(call.route, async () => {
      const reply = await callTool(call.tool, call.args, call.route);
      if (!reply.isError) {
        tally.succeeded += 1;
      } else if (mode === 'reject') {
        // In reject mode the check refuses before the server sees the call; the
        // agent reads the listed values and tries once more.
        tally.rejected += 1;
        tally.attempts += 1;
        const retried = agent.repair(call, reply.text);
        const retry = await callTool(call.tool, retried, call.route);
        if (!retry.isError) {
          tally.succeeded += 1;
          tally.repaired += 1;
        }
        if (!repairsShown.has(call.tool)) {
          repairsShown.add(call.tool);
          options.onRepair?.({ tool: call.tool, route: call.route, call: i, sent: call.args, message: reply.text, retried, retryAccepted: !retry.isError }); // prettier-ignore
        }
      } else {
        tally.serverErrors += 1;
      }
    });
    await options.onProgress?.(i + 1);
  }
  return tallies;
}
