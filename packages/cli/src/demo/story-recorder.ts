import type { ValueSetStatus } from '@argcheck/core';
import type { PhaseFigures } from './figures.js';
import type { ToolTally } from './run-scenario.js';
import { argumentCounts, rate, splitCounts } from './telemetry/argument-figures.js';
import { ATTR_MODEL, ATTR_TOOL_DEFINITION, CHECK_UNAVAILABLE } from './telemetry/metric-names.js';
import { sumOf, type Snapshot } from './telemetry/snapshot.js';
import type { ToolName } from './tools.js';

/** The state of the run at a boundary between two stretches of the story. */
export interface StoryMark {
  calls: number;
  ms: number;
  snapshot: Snapshot;
  tallies: Readonly<Record<ToolName, ToolTally>>;
}

export interface StoryRecorder {
  /** Ends the current stretch (if any) at `mark` and starts a new one. */
  begin(name: string, label: string, mark: StoryMark): void;
  /** Notes the sets' ages, to report the oldest per stretch. */
  observe(statuses: readonly ValueSetStatus[]): void;
  /** Ends the last stretch; the figures of every stretch, in order. */
  finish(mark: StoryMark): PhaseFigures[];
}

interface Open {
  name: string;
  label: string;
  start: StoryMark;
  maxAge: Record<string, number>;
}

const REFUND = { tool: 'refund_order', argument: 'reason_code' };

function figures(open: Open, end: StoryMark): PhaseFigures {
  const refund = argumentCounts(end.snapshot, REFUND, open.start.snapshot);
  const ticketsBefore = open.start.tallies.create_ticket;
  const ticketsAfter = end.tallies.create_ticket;
  return {
    name: open.name,
    label: open.label,
    calls: end.calls - open.start.calls,
    seconds: (end.ms - open.start.ms) / 1000,
    refund: {
      checks: refund.checks,
      outOfSet: refund.outOfSet,
      outOfSetNormalised: refund.outOfSetNormalised,
      outOfSetRate: rate(refund.outOfSet, refund.checks),
      normalisedRate: rate(refund.outOfSetNormalised, refund.checks),
      byModel: splitCounts(end.snapshot, REFUND, ATTR_MODEL, open.start.snapshot),
      byDefinition: splitCounts(end.snapshot, REFUND, ATTR_TOOL_DEFINITION, open.start.snapshot),
    },
    unavailable:
      sumOf(end.snapshot, CHECK_UNAVAILABLE) - sumOf(open.start.snapshot, CHECK_UNAVAILABLE),
    createTicket: {
      planned: ticketsAfter.planned - ticketsBefore.planned,
      succeeded: ticketsAfter.succeeded - ticketsBefore.succeeded,
    },
    maxAgeSeconds: open.maxAge,
  };
}

/** Cuts the run into the stretches of the story and computes each one's figures. */
export function createStoryRecorder(): StoryRecorder {
  const done: PhaseFigures[] = [];
  let open: Open | undefined;
  return {
    begin(name, label, mark) {
      if (open) done.push(figures(open, mark));
      open = { name, label, start: mark, maxAge: {} };
    },
    observe(statuses) {
      if (!open) return;
      for (const status of statuses) {
        if (status.ageSeconds === undefined) continue;
        open.maxAge[status.name] = Math.max(open.maxAge[status.name] ?? 0, status.ageSeconds);
      }
    },
    finish(mark) {
      if (open) done.push(figures(open, mark));
      open = undefined;
      return done;
    },
  };
}
