import { httpValueSet, type CheckMode, type Clock, type ValueSetProvider } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { argcheckViews } from '@argcheck/instrumentation/views';
import { connectMcpServer, type McpConnection } from './mcp-connection.js';
import type { ToolReply } from './run-scenario.js';
import { startOwnerServer, type OwnerServer } from './owner-server.js';
import { mulberry32 } from './prng.js';
import type { ScenarioTiming } from './scenario.js';
import { createDemoTelemetry, type DemoTelemetry } from './telemetry/demo-telemetry.js';
import { CHECKED_ARGUMENTS, type ToolName } from './tools.js';
import { LISTINGS, modelOf, ROUTES, type ListingName, type RouteName } from './traffic.js';
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
  /** One MCP server process per listing, each with its own instrumented client. */
  readonly mcp: Readonly<Record<ListingName, McpConnection>>;
  readonly valueSets: ValueSetProvider;
  /**
   * Runs one turn of the agent on `route` — a call and its retry — under the
   * route's model (`inst.withAttribution`): the model attribution of its
   * calls, and one run for the repair outcome.
   */
  turn<T>(route: RouteName, fn: () => Promise<T>): Promise<T>;
  /** Calls `tool` on the server whose listing `route` reads. */
  callTool(route: RouteName, tool: ToolName, args: Record<string, unknown>): Promise<ToolReply>;
  /** Calls that reached the servers' handlers, per tool, both servers together. */
  received(): Promise<Record<string, number>>;
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

    // ESM imports are out of reach of require hooks: instrument each client itself.
    const mcp = {} as Record<ListingName, McpConnection>;
    for (const listing of Object.keys(LISTINGS) as ListingName[]) {
      const connection = await connectMcpServer((c) => inst.instrumentMcpClient(c), listing);
      closers.push(() => connection.close());
      mcp[listing] = connection;
      // Listed now, so that the first calls already carry their tool_definition.
      await connection.client.listTools();
    }
    await inst.ready();

    return {
      owner,
      telemetry,
      mcp,
      valueSets: inst.valueSets,
      components,
      handles,
      turn: (route, fn) => inst.withAttribution(modelOf(route), fn),
      callTool: (route, tool, args) => mcp[ROUTES[route].listing].callTool(tool, args),
      async received() {
        const total: Record<string, number> = {};
        for (const connection of Object.values(mcp)) {
          for (const [tool, n] of Object.entries(await connection.received())) {
            total[tool] = (total[tool] ?? 0) + n;
          }
        }
        return total;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
