import { staticValueSet } from '@argcheck/core';
import type { CheckContext, CheckedArguments, CheckMode, CheckOutcome } from '@argcheck/core';
import type { DerivedCatalog } from '../../../src/catalog/derive-catalog.js';
import { sentOf } from '../../../src/engine/engine.js';
import type { Engine } from '../../../src/engine/engine.js';
import { ToolArgumentInstrumentation } from '../../../src/instrumentation.js';

/** One check that reached the engine, and whether the caller's catalog checked it. */
export interface RecordedCheck {
  readonly tool: string;
  readonly args: unknown;
  /** The call's context; a deferred one is read only when this is. */
  readonly ctx: CheckContext | undefined;
  readonly outcome: CheckOutcome;
  readonly engine: 'configured' | 'derived';
}

/** The engine of `inst`, as the MCP wrappers reach it (a private field). */
export function engineOf(inst: ToolArgumentInstrumentation): Engine {
  return (inst as unknown as { engine: Engine }).engine;
}

/**
 * Record every check that reaches the current engine of `inst` (until its
 * next `setConfig`). A deferred context is read when the record's `ctx` is,
 * unless `readContext` is `'at-call'` (it depends on what is active then).
 */
export function recordChecks(
  inst: ToolArgumentInstrumentation,
  readContext: 'lazily' | 'at-call' = 'lazily',
): RecordedCheck[] {
  const engine = engineOf(inst);
  const decide = engine.decide.bind(engine);
  const checks: RecordedCheck[] = [];
  (engine as { decide: Engine['decide'] }).decide = (call) => {
    const { tool, scope } = call;
    const ctx = call.context;
    const derived = scope !== undefined && engine.catalogFor(scope) !== undefined;
    const decision = decide(call);
    const read = () => (typeof ctx === 'function' ? ctx() : ctx);
    const atCall = readContext === 'at-call' ? read() : undefined;
    if (decision.outcome !== undefined) {
      checks.push({
        tool,
        args: call.args,
        get ctx() {
          return readContext === 'at-call' ? atCall : read();
        },
        outcome: decision.outcome,
        engine: derived ? 'derived' : 'configured',
      });
    }
    return decision;
  };
  // An MCP client's calls come through `decideSent`: here they go through the
  // recorded `decide` instead, so that each has its outcome. The in-set lane,
  // which makes none, is left out; test/engine/in-set-lane.test.ts compares
  // what it counts with what `decide` counts.
  (engine as { decideSent: Engine['decideSent'] }).decideSent = (
    tool,
    args,
    scope,
    integration,
    context,
    source,
  ) => {
    return sentOf(
      engine.decide({
        tool,
        args,
        context: () => context(source),
        scope,
        integration,
        readOnce: true,
      }),
    );
  };
  return checks;
}

export interface RecordedOptions {
  mode?: CheckMode;
  valueSets?: Readonly<Record<string, readonly string[]>>;
  checkedArguments?: CheckedArguments;
  deriveValueSets?: boolean;
  maxCheckedArguments?: number;
  /** Patch MCP client modules once registered (`registerInstrumentations`). @default false */
  autoPatch?: boolean;
  /** See `recordChecks`. @default 'lazily' */
  readContext?: 'lazily' | 'at-call';
}

/** A real instrumentation (no providers: no-op telemetry) with static sets, its checks recorded. */
export interface Recorded {
  readonly inst: ToolArgumentInstrumentation;
  readonly checks: RecordedCheck[];
  /** The catalog whose derived sets check `scope`'s calls now. */
  catalogFor(scope: object): DerivedCatalog | undefined;
  /** Every configured and derived set has loaded. */
  settled(): Promise<void>;
  close(): void;
}

export function recorded(options: RecordedOptions = {}): Recorded {
  // Enabled (explicit entry points check only while it is), patching nothing
  // unless asked: no framework hooks, MCP hooks only with `autoPatch`.
  const inst = new ToolArgumentInstrumentation({
    mode: options.mode ?? 'observe',
    frameworks: { enabled: false },
    valueSets: Object.fromEntries(
      Object.entries(options.valueSets ?? {}).map(([name, values]) => [
        name,
        staticValueSet(values),
      ]),
    ),
    checkedArguments: options.checkedArguments ?? {},
    mcp: {
      enabled: options.autoPatch ?? false,
      deriveValueSets: options.deriveValueSets ?? true,
      maxCheckedArguments: options.maxCheckedArguments ?? 500,
    },
  });
  const checks = recordChecks(inst, options.readContext);
  return {
    inst,
    checks,
    catalogFor: (scope) => engineOf(inst).catalogFor(scope),
    settled: () => engineOf(inst).ready(),
    close() {
      inst.disable();
      inst.close();
    },
  };
}

/**
 * Run the instrumentation's own module hook on `moduleExports`, as loading a
 * client module after registration would (`@modelcontextprotocol/client`'s
 * definition; every MCP definition patches the same way).
 */
export function patchModule(inst: ToolArgumentInstrumentation, moduleExports: object): void {
  const definition = inst.getModuleDefinitions()[0];
  // A version in the definition's range, as the hook reads it from the package.
  definition?.patch?.(moduleExports, '2.0.0');
}

export function unpatchModule(inst: ToolArgumentInstrumentation, moduleExports: object): void {
  const definition = inst.getModuleDefinitions()[0];
  definition?.unpatch?.(moduleExports);
}
