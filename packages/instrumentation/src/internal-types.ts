import type { DiagLogger } from '@opentelemetry/api';
import type { CheckContext, CheckedArguments, CheckMode, CheckOutcome } from '@argcheck/core';

/** Checks one call and records its telemetry. Never throws. */
export interface CheckEngine {
  check(tool: string, args: unknown, ctx?: CheckContext): CheckOutcome;
  /**
   * `check` with the context given as a function, called only if a log record
   * is written, so a call that writes none does not pay for reading it. The
   * same outcome and telemetry as `check(tool, args, context())`. Optional:
   * callers fall back to `check`.
   */
  checkCall?(tool: string, args: unknown, context: () => CheckContext): CheckOutcome;
}

/** An engine over a catalog's derived arguments, whose sets load in the background. */
export interface DerivedEngine extends CheckEngine {
  /**
   * Settles (never rejects) once the engine checks the latest catalog's
   * arguments. Until then `check` uses the previous catalog's engine, or the
   * configured arguments alone. Await it after deriving if the next call must
   * already see the new catalog.
   */
  ready(): Promise<void>;
}

/** Arguments and value sets read from one MCP server's tool catalog. */
export interface DerivedCatalog {
  /** Only arguments the configuration does not already name. */
  checkedArguments: CheckedArguments;
  /** Set name → members, from string `enum`s in the tools' input schemas. */
  sets: Readonly<Record<string, readonly string[]>>;
}

/** What the MCP integration needs from the instrumentation. */
export interface McpHost {
  readonly mode: CheckMode;
  /** Engine for the configured arguments alone. */
  readonly configured: CheckEngine;
  /** The configured checked arguments, so derivation can skip what they name. */
  readonly configuredArguments: CheckedArguments;
  /**
   * An engine for the configured arguments plus those derived from one
   * server's catalog, keyed by the client it belongs to. Calling it again for
   * the same key replaces the previous derived engine (the catalog changed)
   * and returns the same object. Series for derived arguments are allocated
   * here, within the cap; arguments over it stay unchecked (reported once).
   * A derived set whose name is a configured set's is ignored.
   */
  deriveEngine(key: object, catalog: DerivedCatalog): DerivedEngine;
  /** `mcp.deriveValueSets`. */
  readonly deriveValueSets: boolean;
  /** `mcp.maxCheckedArguments`. */
  readonly maxCheckedArguments: number;
  /** The `conversationId` option applied to a call's context, when configured. */
  conversationIdFor(ctx: CheckContext): string | undefined;
  readonly diag: DiagLogger;
}
