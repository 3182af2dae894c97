// What `npm run soak` (soak/run.ts) records in soak/result.json, and the
// checks it judges by a stable id, which rows of docs/reliability.md cite
// (test/reliability/rows.ts) and take their figures from.

export const SOAK_CHECKS = [
  'no_call_failed',
  'every_call_reached_the_server',
  'no_unhandled_rejection',
  'heap_flat',
  'counters_add_up',
  'same_totals_downstream',
] as const;

export type SoakCheckId = (typeof SOAK_CHECKS)[number];

export interface SoakCheck {
  id: SoakCheckId;
  name: string;
  figure: string;
  ok: boolean;
}

export interface LatencySummary {
  n: number;
  p50: number;
  p99: number;
}

export interface SoakResult {
  date: string;
  command: string;
  durationS: number;
  rate: number;
  mode: string;
  endpoint: 'collector' | 'sink';
  endpointDescription: string;
  settings: { ttlMs: number; maxStaleMs: number; fetchTimeoutMs: number; exportIntervalMs: number };
  schedule: { at: number; label: string }[];
  calls: {
    made: number;
    failed: number;
    byTool: Record<string, number>;
    checkedValues: number;
    failures: string[];
  };
  receivedByServer: number;
  counted: { checked: number; unavailable: number; fetches: number };
  atCollector: { checked: number; unavailable: number };
  fetchOutcomes: Record<string, number>;
  ownerRequests: Record<string, Record<string, number>>;
  exports: Record<'metrics' | 'logs', { ok: number; failed: number }>;
  logs: { emitted: number; atCollector: number };
  providerStatus: {
    maxStaleAgeS: number;
    states: Record<string, number>;
    unavailableSeen: Record<string, number>;
  };
  latencyMs: Record<'calm' | 'ownerDown' | 'otlpDown', LatencySummary>;
  heap: { samples: { at: number; mib: number }[]; growthMiB: number; slopeMiBPerMin: number };
  unhandledRejections: string[];
  uncaughtExceptions: string[];
  checks: SoakCheck[];
  passed: boolean;
}
