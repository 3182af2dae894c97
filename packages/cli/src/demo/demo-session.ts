import { httpValueSet, type CheckMode, type Clock, type ValueSetProvider } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { argcheckViews } from '@argcheck/instrumentation/views';
import { connectMcpServer, type McpConnection } from './mcp-connection.js';
import { startOwnerServer, type OwnerServer } from './owner-server.js';
import { mulberry32 } from './prng.js';
import type { ScenarioTiming } from './scenario.js';
import { createDemoTelemetry, type DemoTelemetry } from './telemetry/demo-telemetry.js';
import { CHECKED_ARGUMENTS } from './tools.js';
import {
  activeHandles,
  componentIds,
  REASON_CODES,
  SET_COMPONENTS,
  SET_HANDLES,
  SET_REASON_CODES,
  SET_WAREHOUSES,
  WAREHOUSES,
} from './value-set-data.js';

export interface DemoSessionOptions {
  seed: number;
  /** The value-set provider's time and timers (the demo's call clock). */
  clock: Clock;
  mode: CheckMode;
  timing: ScenarioTiming;
  otlpEndpoint?: string;
  logFile?: string;
}

/** Every real part of the demo, started and wired as a user would wire them. */
export interface DemoSession {
  readonly owner: OwnerServer;
  readonly telemetry: DemoTelemetry;
  readonly mcp: McpConnection;
  readonly valueSets: ValueSetProvider;
  readonly components: readonly string[];
  readonly handles: readonly string[];
  /** Closes everything that was started, child process included; never rejects. */
  close(): Promise<void>;
}

/**
 * Starts the owner, the OpenTelemetry SDK, the instrumentation and the MCP
 * server child, in that order, closing what was started if a later step fails.
 */
export async function startDemoSession(options: DemoSessionOptions): Promise<DemoSession> {
  const components = componentIds(options.seed);
  const handles = activeHandles(options.seed);
  const closers: (() => Promise<void> | void)[] = [];
  const close = async (): Promise<void> => {
    for (const step of closers.reverse()) {
      try {
        await step();
      } catch {
        // Closing is best effort: one stuck part must not keep the others open.
      }
    }
  };
  try {
    const owner = await startOwnerServer({
      [SET_REASON_CODES]: REASON_CODES,
      [SET_COMPONENTS]: components.map((value) => ({ value })),
      [SET_HANDLES]: handles.map((value) => ({ value })),
      [SET_WAREHOUSES]: WAREHOUSES.map((value) => ({ value })),
    });
    closers.push(() => owner.close());

    const telemetry = createDemoTelemetry({
      views: argcheckViews(),
      otlpEndpoint: options.otlpEndpoint,
      logFile: options.logFile,
      exportIntervalMs: 1_000,
    });
    closers.push(() => telemetry.shutdown());

    const sets = [SET_REASON_CODES, SET_COMPONENTS, SET_HANDLES, SET_WAREHOUSES];
    const inst = new ToolArgumentInstrumentation({
      valueSets: Object.fromEntries(sets.map((set) => [set, httpValueSet(owner.urlFor(set))])),
      checkedArguments: CHECKED_ARGUMENTS,
      mode: options.mode,
      ttlMs: options.timing.ttlMs,
      maxStaleMs: options.timing.maxStaleMs,
      clock: options.clock,
      // Seeded, and with the call clock drawn in the same order on every run,
      // so that the same log records are sampled on every run with this seed.
      random: mulberry32(options.seed ^ 0x10c5),
    });
    inst.setMeterProvider(telemetry.meterProvider);
    inst.setLoggerProvider(telemetry.loggerProvider);
    closers.push(() => {
      inst.close();
      inst.disable();
    });
    await inst.ready();

    // ESM imports are out of reach of require hooks: instrument the client itself.
    const mcp = await connectMcpServer((client) => inst.instrumentMcpClient(client));
    closers.push(() => mcp.close());

    return { owner, telemetry, mcp, valueSets: inst.valueSets, components, handles, close };
  } catch (error) {
    await close();
    throw error;
  }
}
