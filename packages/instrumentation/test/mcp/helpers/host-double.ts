import type { DiagLogger } from '@opentelemetry/api';
import { createArgumentChecker, createValueSetProvider, staticValueSet } from '@argcheck/core';
import type {
  CheckContext,
  CheckedArguments,
  CheckMode,
  CheckOutcome,
  ValueSetProvider,
} from '@argcheck/core';
import type { DerivedCatalog, DerivedEngine, McpHost } from '../../../src/internal-types.js';

/** One check the MCP integration asked for, and which engine answered. */
export interface RecordedCheck {
  tool: string;
  args: unknown;
  ctx: CheckContext | undefined;
  outcome: CheckOutcome;
  engine: 'configured' | 'derived';
}

export interface HostDoubleOptions {
  mode?: CheckMode;
  valueSets?: Readonly<Record<string, readonly string[]>>;
  checkedArguments?: CheckedArguments;
  deriveValueSets?: boolean;
  maxCheckedArguments?: number;
}

/** An `McpHost` made of the real core checker, recording what the integration does with it. */
export interface HostDouble extends McpHost {
  readonly checks: RecordedCheck[];
  readonly derivations: { key: object; catalog: DerivedCatalog }[];
  readonly diagnostics: { level: string; message: string }[];
  /** Resolves when every provider built so far has loaded its sets. */
  settled(): Promise<void>;
  close(): void;
}

function recordingDiag(into: { level: string; message: string }[]): DiagLogger {
  const at =
    (level: string) =>
    (message: string): void => {
      into.push({ level, message });
    };
  return {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    verbose: at('verbose'),
  };
}

export function createHostDouble(options: HostDoubleOptions = {}): HostDouble {
  const mode = options.mode ?? 'observe';
  const configuredSets = options.valueSets ?? {};
  const configuredArguments = options.checkedArguments ?? {};
  const checks: RecordedCheck[] = [];
  const providers: ValueSetProvider[] = [];
  const loading: Promise<void>[] = [];
  const diagnostics: { level: string; message: string }[] = [];

  const engine = (
    sets: Readonly<Record<string, readonly string[]>>,
    checkedArguments: CheckedArguments,
    label: RecordedCheck['engine'],
  ): DerivedEngine => {
    const sources = Object.fromEntries(
      Object.entries(sets).map(([name, values]) => [name, staticValueSet(values)]),
    );
    const provider = createValueSetProvider({ sources });
    providers.push(provider);
    // Static sets still load asynchronously: `ready()` and `settled()` wait for them.
    const ready = provider.ready();
    loading.push(ready);
    const checker = createArgumentChecker({ valueSets: provider, checkedArguments, mode });
    return {
      check(tool, args, ctx) {
        const outcome = checker.check(tool, args, ctx);
        checks.push({ tool, args, ctx, outcome, engine: label });
        return outcome;
      },
      ready: () => ready,
    };
  };

  const derivations: HostDouble['derivations'] = [];
  return {
    mode,
    configured: engine(configuredSets, configuredArguments, 'configured'),
    configuredArguments,
    deriveValueSets: options.deriveValueSets ?? true,
    maxCheckedArguments: options.maxCheckedArguments ?? 500,
    diag: recordingDiag(diagnostics),
    checks,
    derivations,
    diagnostics,
    deriveEngine(key, catalog) {
      derivations.push({ key, catalog });
      const merged: Record<string, Record<string, string>> = {};
      for (const source of [configuredArguments, catalog.checkedArguments]) {
        for (const [tool, paths] of Object.entries(source)) {
          merged[tool] = { ...merged[tool], ...paths };
        }
      }
      return engine({ ...configuredSets, ...catalog.sets }, merged, 'derived');
    },
    conversationIdFor: () => undefined,
    async settled() {
      await Promise.all(loading);
    },
    close() {
      for (const provider of providers) provider.close();
    },
  };
}
