// The fault matrix of docs/reliability.md: every row, grouped by area in the
// order of AREAS (table.ts). Add a row to the area's file (or here), as one
// `FaultRow`: what goes wrong, what happens now, the tests that prove it, and
// how to measure it.
import { adversarial } from './adversarial.js';
import { concurrency, mcp } from './calls.js';
import { cli } from './cli.js';
import { collectorLogs } from './collector-logs.js';
import { collectorMetrics } from './collector-metrics.js';
import { jsonTextArguments } from './json-text.js';
import { mcpCatalogs } from './mcp-catalogs.js';
import { outages, ttl } from './outages-and-ttl.js';
import { ownerCredentials } from './owner-credentials.js';
import { ownerFaults } from './owner-faults.js';
import { pipelineFleet } from './pipeline-fleet.js';
import { repairMessages } from './repair-messages.js';
import { roundTwo } from './round-two.js';
import { soakOutages, soakTelemetry } from './soak-rows.js';
import { AREAS, type FaultRow } from './table.js';
import { floods, telemetryFaults } from './telemetry.js';

const ALL: readonly FaultRow[] = [
  ...ownerFaults,
  ...ownerCredentials,
  ...concurrency,
  ...outages,
  ...soakOutages,
  ...ttl,
  ...telemetryFaults,
  ...soakTelemetry,
  ...adversarial,
  ...jsonTextArguments,
  ...repairMessages,
  ...floods,
  ...mcpCatalogs,
  ...mcp,
  ...cli,
  ...collectorMetrics,
  ...collectorLogs,
  ...pipelineFleet,
  ...roundTwo,
];

/** Every row, in document order. */
export const FAULTS: readonly FaultRow[] = AREAS.flatMap((area) =>
  ALL.filter((row) => row.area === area),
);
