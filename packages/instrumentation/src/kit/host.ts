/**
 * What every integration gets from the instrumentation instance it belongs
 * to: the engine's seam, the instance's wrapping, its diagnostics, and the
 * state it keeps per instance. Several instances keep apart: each has its
 * own host, its own wrappers and marks, and enforces its own configuration.
 */
import type { DiagLogger } from '@opentelemetry/api';
import { runMarked } from '../engine/call-marks.js';
import type { Engine } from '../engine/engine.js';
import type { IntegrationName } from '../semconv.js';
import { createToolsState } from './tools-map.js';
import type { ToolsState } from './tools-map.js';
import { rangeText } from './version-range.js';
import type { VersionRange } from './version-range.js';
import { createWrapping } from './wrapping.js';
import type { Wrapping } from './wrapping.js';

export interface Host {
  /**
   * The engine of the configuration in force; `undefined` while the
   * instrumentation is disabled, so that everything it wrapped — patched
   * modules, instrumented clients and tools, copies, hooks and guardrails
   * from the explicit entry points — passes calls straight on.
   */
  readonly engine: () => Engine | undefined;
  readonly diag: DiagLogger;
  readonly wrapping: Wrapping;
  /** What this instance's framework tools have been through (copies, listings). */
  readonly tools: ToolsState;
  /**
   * The value one of this instance's wrappers is handing on to the next
   * right now: a method wrapped on an instance and on its prototype has two
   * wrappers in a row, and the inner one passes that very value on unchecked.
   */
  forwarding: unknown;
  /** `frameworks.deriveValueSets` of the configuration in force. */
  readonly deriveFrameworkSets: () => boolean;
  /** `integration` sees calls from now on: its call series are exported, at zero until counted. */
  readonly seen: (integration: IntegrationName) => void;
  /** Say, once per package, that a loaded version is outside the supported range. */
  unsupported(packageName: string, version: string | undefined, range: VersionRange): void;
  /** State an integration keeps per instance, made on first use. */
  local<T>(key: symbol, make: () => T): T;
  /**
   * Run the tool of a call decided earlier (`engine.decide`) with the
   * arguments it is run with, marked as checked (`engine/call-marks.ts`), so
   * the MCP call it makes for this very call is not counted again.
   */
  runMarked<T>(tool: string, args: unknown, run: () => T): T;
  /** Work started in the background (a tool listing, a diagnostic probe) that `inst.ready()` waits for. */
  track(work: Promise<unknown>): void;
  /** Settles when the work tracked so far has. Never rejects. */
  settled(): Promise<void>;
}

export interface HostDeps {
  readonly engine: () => Engine | undefined;
  readonly diag: () => DiagLogger;
  readonly deriveFrameworkSets: () => boolean;
  readonly seen: (integration: IntegrationName) => void;
}

export function createHost(deps: HostDeps): Host {
  const reported = new Set<string>();
  const locals = new Map<symbol, unknown>();
  const pending = new Set<Promise<unknown>>();
  const host: Host = {
    engine: deps.engine,
    get diag() {
      return deps.diag();
    },
    wrapping: createWrapping({}),
    tools: createToolsState(),
    forwarding: undefined,
    deriveFrameworkSets: deps.deriveFrameworkSets,
    seen: deps.seen,
    unsupported(packageName, version, range) {
      if (reported.has(packageName)) return;
      reported.add(packageName);
      host.diag.warn(
        `argcheck: ${packageName} ${version ?? '(unknown version)'} is outside the supported ` +
          `range ${rangeText(range)}; its tool calls are not checked. Use a supported ` +
          'version, or the explicit entry point (docs/frameworks.md).',
      );
    },
    local<T>(key: symbol, make: () => T): T {
      if (!locals.has(key)) locals.set(key, make());
      return locals.get(key) as T;
    },
    runMarked: (tool, args, run) => runMarked(host, tool, args, run),
    track(work) {
      const settled: Promise<unknown> = work.then(
        (): unknown => pending.delete(settled),
        (): unknown => pending.delete(settled),
      );
      pending.add(settled);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
  return host;
}
