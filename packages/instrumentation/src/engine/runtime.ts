import type { DiagLogger } from '@opentelemetry/api';
import { createArgumentChecker, createValueSetProvider, staticValueSet } from '@argcheck/core';
import type {
  CheckContext,
  CheckedArguments,
  ValueSetEvent,
  ValueSetProvider,
  ValueSetSource,
  ValueSetStatus,
} from '@argcheck/core';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { CheckEngine, DerivedCatalog } from '../internal-types.js';
import { createCheckLog } from '../logs/check-log.js';
import type { LogEmitter } from '../logs/check-log.js';
import { createEngine } from './create-engine.js';
import { overlayProvider } from './overlay-provider.js';
import type { ArgumentSeries, SeriesRegistry } from './series-registry.js';
import { seriesTable } from './series-table.js';

export interface RuntimeDeps {
  registry: SeriesRegistry;
  logger: () => LogEmitter;
  diag: DiagLogger;
  onEvent: (event: ValueSetEvent) => void;
  /** Derived arguments were left unchecked because the budget is spent. */
  onBudgetSpent: (unchecked: number) => void;
}

/** An engine over configured and catalog-derived arguments, with its own provider for the derived sets. */
export interface DerivedBuild {
  readonly engine: CheckEngine;
  /** Settles when every derived set has had its first load. Never rejects. */
  readonly ready: Promise<void>;
  /** Report the derived sets' status from now on. */
  activate(): void;
  /** Stop reporting them and close their provider. */
  retire(): void;
}

/** Everything built from one configuration. */
export interface Runtime {
  readonly config: ResolvedConfig;
  readonly provider: ValueSetProvider;
  readonly configured: CheckEngine;
  conversationIdFor(ctx: CheckContext): string | undefined;
  derive(catalog: DerivedCatalog): DerivedBuild;
  /** Status of configured sets and of the derived sets in use. */
  statuses(): ValueSetStatus[];
  close(): void;
}

function configures(checked: CheckedArguments, tool: string, argument: string): boolean {
  return Object.hasOwn(checked, tool) && Object.hasOwn(checked[tool] as object, argument);
}

/** Null-prototype records: tool and argument names come from a server and may be `__proto__`. */
function record<T>(from?: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, from);
}

function argumentsOf(checked: CheckedArguments): [tool: string, argument: string, set: string][] {
  return Object.entries(checked).flatMap(([tool, paths]) =>
    Object.entries(paths).map(([argument, set]): [string, string, string] => [tool, argument, set]),
  );
}

/** @throws ArgcheckConfigError for a configuration mistake (from the core). */
export function createRuntime(config: ResolvedConfig, deps: RuntimeDeps): Runtime {
  const providerOptions = {
    ttlMs: config.ttlMs,
    fetchTimeoutMs: config.fetchTimeoutMs,
    maxStaleMs: config.maxStaleMs,
    clock: config.clock,
    random: config.random,
    onEvent: deps.onEvent,
  };
  const provider = createValueSetProvider({ sources: config.valueSets, ...providerOptions });
  const conversationIdFor = (ctx: CheckContext): string | undefined => {
    if (config.conversationId === undefined) return undefined;
    try {
      const id = config.conversationId(ctx);
      return typeof id === 'string' ? id : undefined;
    } catch {
      return undefined;
    }
  };
  const log = createCheckLog({
    ...config,
    conversationIdFor,
    logger: deps.logger,
    diag: deps.diag,
  });
  const checker = createArgumentChecker({
    valueSets: provider,
    checkedArguments: config.checkedArguments,
    mode: config.mode,
  });
  const configuredSeries = argumentsOf(config.checkedArguments).map(([tool, argument, set]) =>
    deps.registry.configured(tool, argument, set),
  );
  const configured = createEngine(checker, seriesTable(configuredSeries, deps.registry), log);
  const configuredSets = new Set(provider.names());
  const activeDerived = new Set<ValueSetProvider>();

  const unchanged: DerivedBuild = {
    engine: configured,
    ready: Promise.resolve(),
    activate: () => undefined,
    retire: () => undefined,
  };

  const derivedSources = (catalog: DerivedCatalog): Record<string, ValueSetSource> => {
    const sources = record<ValueSetSource>();
    for (const [name, members] of Object.entries(catalog.sets)) {
      // A configured set keeps its name; the catalog cannot shadow the owner's set.
      if (configuredSets.has(name)) continue;
      try {
        sources[name] = staticValueSet(members);
      } catch {
        // An empty or malformed enum is no set to check against.
      }
    }
    return sources;
  };

  const usable = (
    valueSets: ValueSetProvider,
    tool: string,
    argument: string,
    set: string,
  ): boolean => {
    try {
      const paths = record<string>();
      paths[argument] = set;
      const checkedArguments = record<typeof paths>();
      checkedArguments[tool] = paths;
      createArgumentChecker({ valueSets, checkedArguments });
      return true;
    } catch {
      return false;
    }
  };

  const derive = (catalog: DerivedCatalog): DerivedBuild => {
    const derivedProvider = createValueSetProvider({
      sources: derivedSources(catalog),
      ...providerOptions,
    });
    const valueSets = overlayProvider(provider, derivedProvider);
    const checked = record<Record<string, string>>();
    for (const [tool, paths] of Object.entries(config.checkedArguments))
      checked[tool] = record(paths);
    const series: ArgumentSeries[] = [...configuredSeries];
    let unusable = 0;
    let unchecked = 0;
    for (const [tool, argument, set] of argumentsOf(catalog.checkedArguments)) {
      if (configures(config.checkedArguments, tool, argument)) continue;
      if (!usable(valueSets, tool, argument, set)) {
        unusable++;
        continue;
      }
      const entry = deps.registry.derived(tool, argument, set, config.mcp.maxCheckedArguments);
      if (entry === undefined) {
        unchecked++;
        continue;
      }
      (checked[tool] ??= record())[argument] = set;
      series.push(entry);
    }
    if (unusable > 0) {
      deps.diag.debug(
        `${unusable} catalog-derived argument(s) have a path or set that cannot be checked; skipped`,
      );
    }
    if (unchecked > 0) deps.onBudgetSpent(unchecked);
    if (series.length === configuredSeries.length) {
      derivedProvider.close();
      return unchanged;
    }
    const engine = createEngine(
      createArgumentChecker({ valueSets, checkedArguments: checked, mode: config.mode }),
      seriesTable(series, deps.registry),
      log,
    );
    return {
      engine,
      ready: derivedProvider.ready(),
      activate: () => activeDerived.add(derivedProvider),
      retire: () => {
        activeDerived.delete(derivedProvider);
        derivedProvider.close();
      },
    };
  };

  return {
    config,
    provider,
    configured,
    conversationIdFor,
    derive,
    statuses() {
      const seen = new Set<string>();
      return [provider, ...activeDerived]
        .flatMap((p) => p.status())
        .filter((s) => !seen.has(s.name) && seen.add(s.name));
    },
    close() {
      provider.close();
      for (const p of activeDerived) p.close();
      activeDerived.clear();
    },
  };
}
