import type { ValueSetStatus } from '@argcheck/core';
import { formatCount } from '../report/format.js';
import { createAgent } from './agent.js';
import type { DemoArgs } from './demo-args.js';
import { createCallClock, type CallClock } from './call-clock.js';
import { buildFigures } from './demo-figures.js';
import { startDemoSession, type DemoSession } from './demo-session.js';
import type { DemoFigures } from './figures.js';
import type { LiveFrame } from './render/live-frame.js';
import type { LiveOutput } from './render/live-output.js';
import { renderFrame, renderOneLine } from './render/render-live.js';
import {
  emptyTallies,
  runScenario,
  type RepairExample,
  type ScenarioClock,
  type ToolTally,
} from './run-scenario.js';
import { phaseAt, scenarioTiming } from './scenario.js';
import { createStoryRecorder, type StoryMark } from './story-recorder.js';
import { argumentCounts } from './telemetry/argument-figures.js';
import { REPAIR_STARTED } from './telemetry/metric-names.js';
import { sumOf, type Snapshot } from './telemetry/snapshot.js';
import { CHECKED, TOOLS, type ToolName } from './tools.js';
import { SET_HANDLES, SET_REASON_CODES, SEVENTH_REASON_CODE } from './value-set-data.js';
import { shownEndpoint } from './shown-endpoint.js';

/** How often the live display is redrawn on a terminal, in milliseconds. */
const REDRAW_MS = 100;
/** Plain output prints one line per this share of the run. */
const PLAIN_STEP = 0.1;
/**
 * How long a call waits, at most, for the refreshes its call clock started.
 * The owner answers at once; the bound only keeps a stuck fetch (whose
 * timeout runs on the call clock, which waits) from stopping the run.
 */
const SETTLE_LIMIT_MS = 5_000;

const systemClock: ScenarioClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface DemoRun {
  figures: DemoFigures;
  /** The last live frame, for the final table. */
  frame: LiveFrame;
  interrupted: boolean;
}

/** Starts every part, plays the story, and closes every part again, whatever happens. */
export async function runDemo(
  args: DemoArgs,
  live: LiveOutput,
  signal: AbortSignal,
): Promise<DemoRun> {
  const timing = scenarioTiming(args.durationMs, args.callsPerSecond);
  const callClock = createCallClock(Date.now());
  const session = await startDemoSession({ ...args, timing, clock: callClock });
  let run: DemoRun;
  try {
    run = await play(session, callClock, args, timing, live, signal);
  } finally {
    await session.close();
  }
  // Read after closing: shutting the providers down makes the last exports.
  if (args.otlpEndpoint !== undefined) {
    const endpoint = shownEndpoint(args.otlpEndpoint);
    run.figures.otlp = { endpoint, ...session.telemetry.exports() };
  }
  return run;
}

async function play(
  session: DemoSession,
  callClock: CallClock,
  args: DemoArgs,
  timing: ReturnType<typeof scenarioTiming>,
  live: LiveOutput,
  signal: AbortSignal,
): Promise<DemoRun> {
  const clock = systemClock;
  const start = clock.now();
  const tallies = emptyTallies();
  const recorder = createStoryRecorder();
  const history: Snapshot[] = [];
  let callsDone = 0;
  let lastDraw = -Infinity;
  let nextPlain = PLAIN_STEP;
  let seventhAddedAt: number | undefined;
  let storyLabel = '';
  const repairExamples: RepairExample[] = [];

  const copy = (t: Record<ToolName, ToolTally>) => structuredClone(t);
  const collect = async (): Promise<Snapshot> => {
    const snapshot = await session.telemetry.collect(clock.now() - start);
    history.push(snapshot);
    while (history.length > 2 && (history[1]?.at ?? 0) <= snapshot.at - timing.windowMs)
      history.shift();
    return snapshot;
  };
  const mark = async (): Promise<StoryMark> => ({
    calls: callsDone,
    ms: clock.now() - start,
    snapshot: await collect(),
    tallies: copy(tallies),
  });
  const statuses = (): ValueSetStatus[] => session.valueSets.status();
  const at = (): string => `${((clock.now() - start) / 1000).toFixed(1).padStart(6)} s  ▸ `;

  const frameOf = (snapshot: Snapshot): LiveFrame => {
    const since = history[0];
    const answers = session.owner.requests();
    return {
      title: `argcheck demo · mode ${args.mode} · seed ${args.seed} · ${formatCount(timing.totalCalls)} calls over ${timing.durationMs / 1000} s`,
      progress: callsDone / timing.totalCalls,
      elapsedMs: clock.now() - start,
      durationMs: timing.durationMs,
      phaseLabel: storyLabel,
      tools: TOOLS.map((tool) => ({ tool, calls: tallies[tool].attempts, repairs: sumOf(snapshot, REPAIR_STARTED, { tool }) })),
      rows: CHECKED.map((where) => ({
        ...where,
        total: argumentCounts(snapshot, where),
        window: argumentCounts(snapshot, where, since),
      })),
      showRewritten: args.mode !== 'observe',
      valueSets: statuses().map((s) => ({
        name: s.name,
        state: s.state,
        size: s.size,
        ageSeconds: s.ageSeconds,
        owner: Object.entries(answers[s.name] ?? {}).map(([code, n]) => `${code}×${n}`).join(' '),
      })),
    };
  }; // prettier-ignore

  // The provider's time is the call's scheduled time; what its timers start
  // (refreshes, retries) settles before the call, as if the owner answered at once.
  const origin = callClock.now();
  const settle = (): Promise<void> =>
    Promise.race([
      session.valueSets.ready(),
      new Promise<void>((resolve) => setTimeout(resolve, SETTLE_LIMIT_MS).unref()),
    ]);
  const beforeCall = async (index: number): Promise<void> => {
    const at = origin + (index / timing.totalCalls) * timing.durationMs;
    while (callClock.advanceTo(at)) await settle();
  };

  const onPhase = async (index: number): Promise<void> => {
    const phase = phaseAt(index);
    // The provider refreshes just before each owner change, so that the stale
    // window that follows lasts one whole TTL on every run rather than a random part of it.
    if (phase.event === 'add_seventh_code') {
      await session.valueSets.refresh(SET_REASON_CODES);
      session.owner.addMember(SET_REASON_CODES, SEVENTH_REASON_CODE);
      seventhAddedAt = callClock.now();
    } else if (phase.event === 'identity_down') {
      await session.valueSets.refresh(SET_HANDLES);
      session.owner.setDown(SET_HANDLES, true);
    } else if (phase.event === 'identity_up') {
      session.owner.setDown(SET_HANDLES, false);
    }
    recorder.begin(phase.name, phase.label, await mark());
    storyLabel = phase.label;
    live.event(at() + phase.label);
  };

  const onProgress = async (done: number): Promise<void> => {
    callsDone = done;
    if (seventhAddedAt !== undefined) {
      const refunds = statuses().find((s) => s.name === SET_REASON_CODES);
      if ((refunds?.fetchedAt ?? 0) > seventhAddedAt) {
        seventhAddedAt = undefined;
        const label = `TTL passed, cached set refreshed: ${SEVENTH_REASON_CODE.value} in set`;
        recorder.begin('seventh_code_refreshed', label, await mark());
        storyLabel = label;
        live.event(at() + label);
      }
    }
    const now = clock.now();
    const plainDue = done / timing.totalCalls >= nextPlain;
    if (now - lastDraw < REDRAW_MS && !plainDue) return;
    lastDraw = now;
    const frame = frameOf(await collect());
    recorder.observe(statuses());
    live.frame(renderFrame(frame));
    if (plainDue) {
      live.plain(renderOneLine(frame));
      while (nextPlain <= done / timing.totalCalls) nextPlain += PLAIN_STEP;
    }
  };

  await runScenario({
    timing,
    agent: createAgent(args.seed, session),
    mode: args.mode,
    callTool: (tool, toolArgs, route) => session.callTool(route, tool, toolArgs),
    turn: (route, fn) => session.turn(route, fn),
    onRepair: (example) => void repairExamples.push(example),
    clock,
    beforeCall,
    onPhase,
    onProgress,
    tallies,
    signal,
  });

  recorder.observe(statuses());
  const end = await mark();
  const frame = frameOf(end.snapshot);
  live.frame(renderFrame(frame));
  const figures = buildFigures({
    seed: args.seed,
    mode: args.mode,
    timing,
    elapsedMs: end.ms,
    callsMade: callsDone,
    snapshot: end.snapshot,
    tallies,
    // An interrupted run may have lost the server; the figures go on without its count.
    received: await session.received().catch(() => undefined),
    phases: recorder.finish(end),
    statuses: statuses(),
    ownerAnswers: session.owner.requests(),
    logRecords: session.telemetry.logRecords(),
    definitions: session.telemetry.definitions(),
    repairExamples,
  });
  return { figures, frame, interrupted: signal.aborted };
}
