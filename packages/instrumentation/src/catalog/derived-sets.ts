/**
 * Value sets derived from a scope's tool catalog (an MCP server's
 * `tools/list`): every string enum in a tool's input schema is checked
 * against the catalog's own members, unless the configuration names that
 * argument. Subordinate to the engine: it hands the engine a checker per
 * scope, and the engine checks with the configured one when there is none.
 *
 * Derived arguments get series from a budget (`mcp.maxCheckedArguments`,
 * over the instrumentation's lifetime). Only sets that an argument within the
 * budget checks are loaded, so a catalog cannot grow any instrument's series
 * past it, fetch metrics included.
 */
import type { DiagLogger } from '@opentelemetry/api';
import { createArgumentChecker, createValueSetProvider, toolSchemaValueSet } from '@argcheck/core';
import type {
  CheckedArguments,
  ValueSetProvider,
  ValueSetProviderOptions,
  ValueSetSource,
  ValueSetStatus,
} from '@argcheck/core';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { CoreChecker, CountedChecker } from '../engine/counted-checker.js';
import type { ToolNames } from '../engine/tool-names.js';
import type { IntegrationName } from '../semconv.js';
import type { ArgumentSeries, SeriesRegistry } from '../telemetry/series.js';
import { deriveCatalog, MAX_CATALOG_MEMBERS } from './derive-catalog.js';
import type { DerivedCatalog } from './derive-catalog.js';
import { overlayProvider } from './overlay-provider.js';

/** One `tools/list` result, or one page of it. */
export interface ToolListing {
  readonly tools: readonly unknown[];
  /** A further page of the listing in progress (a `cursor` was sent); otherwise it starts over. */
  readonly continued?: boolean;
  /** The first part of derived set names: `mcp`, or a framework's name. @default 'mcp' */
  readonly origin?: string | undefined;
  /** Tells catalogs of one origin apart (an MCP server's `serverInfo.name`). */
  readonly scopeName?: string | undefined;
  /** Whose calls the listed tools are, for their `tool_argument_call` series. @default 'mcp' */
  readonly integration?: IntegrationName | undefined;
}

/** What a scope has listed so far. Outlives an engine: the next configuration derives from it. */
export interface ScopeListing {
  /** Tools by name over the pages of the listing in progress. */
  readonly tools: Map<string, unknown>;
  origin: string | undefined;
  scopeName: string | undefined;
  /** The cap has been reported for this scope. */
  warnedCap: boolean;
}

export type ToolListings = WeakMap<object, ScopeListing>;

export interface DerivedSetsDeps {
  config: ResolvedConfig;
  /** Which configured tool a catalog's tool name stands for. */
  names: ToolNames;
  configuredSets: ValueSetProvider;
  configuredSeries: readonly ArgumentSeries[];
  providerOptions: Omit<ValueSetProviderOptions, 'sources'>;
  registry: SeriesRegistry;
  listings: ToolListings;
  counted: (
    core: CoreChecker,
    series: readonly ArgumentSeries[],
    aliases: ReadonlyMap<string, string>,
  ) => CountedChecker;
  diag: DiagLogger;
  onBudgetSpent: (unchecked: number) => void;
  /**
   * Called whenever what `checkerFor`, `listed`, `inCatalog` or a listed
   * tool's entry would answer for some scope may have changed: a caller may
   * keep an answer until the next call.
   */
  changed: () => void;
}

export interface DerivedSets {
  /** The checker for `scope`'s calls once its derived sets have loaded; `undefined`: use the configured one. */
  checkerFor(scope: object): CountedChecker | undefined;
  /** See `Engine.catalogFor`. */
  catalogFor(scope: object): DerivedCatalog | undefined;
  /** Take a listing; see `Engine.toolsListed`. */
  learn(scope: object, listing: ToolListing): Promise<void> | undefined;
  /** See `Engine.listed`. */
  listed(scope: object): boolean;
  /** See `Engine.inCatalog`. */
  inCatalog(scope: object, tool: string): boolean;
  ready(): Promise<void>;
  statuses(): ValueSetStatus[];
  close(): void;
}

/** A checker over configured plus derived arguments, and the provider of its derived sets. */
interface Build {
  catalog: DerivedCatalog;
  checker: CountedChecker;
  provider: ValueSetProvider;
}

interface ScopeState {
  /** The derived catalog last built, as JSON: an unchanged catalog is not built again. */
  fingerprint: string;
  active: Build | undefined;
  pending: Build | undefined;
  /** Bumped by each build; a load that finishes after a newer build is dropped. */
  generation: number;
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

export function createDerivedSets(deps: DerivedSetsDeps): DerivedSets {
  const { config, configuredSets, registry, diag, names } = deps;
  /** The configured paths of the tool a catalog's name stands for. */
  const configuredFor = (tool: string): Readonly<Record<string, string>> | undefined => {
    const name = names.configured(tool);
    return name === undefined ? undefined : config.checkedArguments[name];
  };
  const scopes = new WeakMap<object, ScopeState>();
  /** Providers of builds that check (for statuses) and of every build not yet retired (for close). */
  const inUse = new Set<ValueSetProvider>();
  const open = new Set<ValueSetProvider>();
  const loading = new Set<Promise<void>>();
  let closed = false;
  const configuredNames = new Set(configuredSets.names());
  /** MCP catalogs follow `mcp.deriveValueSets`, a framework's tool schemas `frameworks.deriveValueSets`. */
  const derives = (origin: string | undefined) =>
    (origin ?? 'mcp') === 'mcp' ? config.mcp.deriveValueSets : config.frameworks.deriveValueSets;

  /** Can the core check this one argument against this provider (path syntax, set known)? */
  const usable = (valueSets: ValueSetProvider, tool: string, argument: string, set: string) => {
    try {
      const checkedArguments = record<Record<string, string>>();
      checkedArguments[tool] = record({ [argument]: set });
      createArgumentChecker({ valueSets, checkedArguments });
      return true;
    } catch {
      return false;
    }
  };

  /** Sources for the catalog's sets; a configured set keeps its name, the catalog cannot shadow it. */
  const sourcesOf = (catalog: DerivedCatalog): Record<string, ValueSetSource> => {
    const sources = record<ValueSetSource>();
    for (const [name, members] of Object.entries(catalog.sets)) {
      if (configuredNames.has(name)) continue;
      try {
        sources[name] = toolSchemaValueSet(members);
      } catch {
        // An empty or malformed enum is no set to check against.
      }
    }
    return sources;
  };

  /** The configured disclosures, and the derived ones that name a set of this catalog. */
  const disclosureFor = (names: readonly string[]) => {
    const { configured, derived } = config.repairDisclosure;
    const own = Object.entries(derived).filter(([name]) => names.includes(name));
    return { ...configured, ...Object.fromEntries(own) };
  };

  const build = (catalog: DerivedCatalog): Build | undefined => {
    const candidates = sourcesOf(catalog);
    // Validated against every candidate set, but only the sets of arguments
    // admitted within the budget are loaded.
    const probe = overlayProvider(
      configuredSets,
      createValueSetProvider({ sources: candidates, ...deps.providerOptions }),
    );
    probe.close();
    const checked = record<Record<string, string>>();
    for (const [tool, paths] of Object.entries(config.checkedArguments)) {
      checked[tool] = record(paths);
    }
    const series: ArgumentSeries[] = [...deps.configuredSeries];
    const admittedSets = record<ValueSetSource>();
    /** Catalog names of configured tools (`shop_refund_order` → `refund_order`) that derive arguments too. */
    const aliases = new Map<string, string>();
    let unusable = 0;
    let unchecked = 0;
    for (const [tool, argument, set] of argumentsOf(catalog.checkedArguments)) {
      const configured = configuredFor(tool);
      if (configured !== undefined && Object.hasOwn(configured, argument)) continue;
      if (!usable(probe, tool, argument, set)) {
        unusable++;
        continue;
      }
      const entry = registry.derived(tool, argument, set, config.mcp.maxCheckedArguments);
      if (entry === undefined) {
        unchecked++;
        continue;
      }
      const alias = names.configured(tool);
      if (alias !== undefined && alias !== tool && !aliases.has(tool)) {
        aliases.set(tool, alias);
        // The alias is checked for the configured tool's arguments as well as its own.
        checked[tool] = record({ ...configured, ...checked[tool] });
      }
      (checked[tool] ??= record())[argument] = set;
      series.push(entry);
      const source = candidates[set];
      if (source !== undefined) admittedSets[set] = source;
    }
    if (unusable > 0) {
      diag.debug(
        `${unusable} catalog-derived argument(s) cannot be checked (path or set); skipped`,
      );
    }
    if (unchecked > 0) deps.onBudgetSpent(unchecked);
    if (series.length === deps.configuredSeries.length) return undefined;
    const provider = createValueSetProvider({ sources: admittedSets, ...deps.providerOptions });
    for (const { name, source } of provider.status()) registry.valueSet(name, source);
    open.add(provider);
    const valueSets = overlayProvider(configuredSets, provider);
    const checker = createArgumentChecker({
      valueSets,
      checkedArguments: checked,
      mode: config.mode,
      repairDisclosure: disclosureFor(valueSets.names()),
    });
    return {
      catalog,
      checker: deps.counted({ checker, checkedArguments: checked, valueSets }, series, aliases),
      provider,
    };
  };

  const retire = (build: Build | undefined): void => {
    if (build === undefined) return;
    inUse.delete(build.provider);
    open.delete(build.provider);
    build.provider.close();
  };

  /** Build from the catalog; the build checks once its sets have loaded, the previous one until then. */
  const install = (state: ScopeState, catalog: DerivedCatalog): Promise<void> | undefined => {
    const next = build(catalog);
    const generation = ++state.generation;
    retire(state.pending);
    state.pending = undefined;
    if (next === undefined) {
      retire(state.active);
      state.active = undefined;
      deps.changed();
      return undefined;
    }
    state.pending = next;
    const loaded = next.provider.ready().then(() => {
      loading.delete(loaded);
      if (closed || state.generation !== generation) return;
      retire(state.active);
      inUse.add(next.provider);
      state.active = next;
      state.pending = undefined;
      deps.changed();
    });
    loading.add(loaded);
    return loaded;
  };

  const derive = (listing: ScopeListing) =>
    deriveCatalog([...listing.tools.values()], {
      configuredFor,
      maxCheckedArguments: config.mcp.maxCheckedArguments,
      origin: listing.origin,
      scopeName: listing.scopeName,
    });

  const stateOf = (scope: object): ScopeState => {
    let state = scopes.get(scope);
    if (state === undefined) {
      state = { fingerprint: '', active: undefined, pending: undefined, generation: 0 };
      scopes.set(scope, state);
    }
    return state;
  };

  return {
    checkerFor(scope) {
      const state = scopes.get(scope);
      if (state !== undefined) return state.active?.checker;
      // Listed under an earlier configuration: derive under this one, and
      // check with the configured arguments until its sets have loaded.
      const listing = deps.listings.get(scope);
      if (listing === undefined || !derives(listing.origin)) return undefined;
      const fresh = stateOf(scope);
      const { catalog } = derive(listing);
      fresh.fingerprint = JSON.stringify(catalog);
      void install(fresh, catalog);
      return undefined;
    },

    catalogFor: (scope) => scopes.get(scope)?.active?.catalog,

    learn(scope, { tools, continued, origin, scopeName, integration }) {
      deps.changed();
      let listing = deps.listings.get(scope);
      if (listing === undefined) {
        listing = { tools: new Map(), origin, scopeName, warnedCap: false };
        deps.listings.set(scope, listing);
      }
      if (continued !== true) listing.tools.clear();
      listing.origin = origin;
      listing.scopeName = scopeName;
      for (const tool of tools) {
        const name = (tool as { name?: unknown } | null)?.name;
        if (typeof name !== 'string' || listing.tools.has(name)) continue;
        listing.tools.set(name, tool);
        // Its calls' series are exported from here on, at zero until counted.
        registry.call(names.configured(name) ?? name, integration ?? 'mcp', true);
      }
      // The tool names are kept whatever derivation says: they name the calls' series.
      if (!derives(origin)) return undefined;
      const { catalog, dropped, unnamed } = derive(listing);
      const state = stateOf(scope);
      const fingerprint = JSON.stringify(catalog);
      if (fingerprint === state.fingerprint) return undefined;
      state.fingerprint = fingerprint;
      // Nothing derived now or before: the configured checker serves.
      if (Object.keys(catalog.sets).length === 0 && state.active === undefined) return undefined;
      if (dropped > 0 && !listing.warnedCap) {
        listing.warnedCap = true;
        diag.warn(
          `argcheck: a tool catalog has ${dropped} more enum arguments than ` +
            `mcp.maxCheckedArguments (${config.mcp.maxCheckedArguments}) or ` +
            `${MAX_CATALOG_MEMBERS.toLocaleString('en-US')} enum members in all allow; they are not checked.`,
        );
      }
      if (unnamed.length > 0) {
        diag.debug(`argcheck: catalog arguments without a usable set name: ${unnamed.join(', ')}`);
      }
      return install(state, catalog);
    },

    listed: (scope) => deps.listings.has(scope),

    inCatalog: (scope, tool) => deps.listings.get(scope)?.tools.has(tool) ?? false,

    async ready() {
      await Promise.all([...loading]);
    },

    statuses: () => [...inUse].flatMap((p) => p.status()),

    close() {
      closed = true;
      deps.changed();
      for (const provider of open) provider.close();
      open.clear();
      inUse.clear();
    },
  };
}
