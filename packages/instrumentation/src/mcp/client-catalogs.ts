import type { CheckEngine, DerivedEngine, McpHost } from '../internal-types.js';
import { deriveCatalog } from './derive-catalog.js';

/** What one client's server catalog has given us so far. */
interface ClientCatalog {
  /** Tools by name over the pages of the listing in progress. */
  tools: Map<string, unknown>;
  /** The derived catalog last handed to the host, as JSON; unchanged catalogs are not re-derived. */
  fingerprint: string;
  engine: DerivedEngine | undefined;
  /** The cap has been reported for this client. */
  warnedCap: boolean;
}

/** `mcp.maxCheckedArguments` when the host gives nothing usable. */
const DEFAULT_MAX_CHECKED_ARGUMENTS = 500;

/** Derived engines per client, for one host. */
export interface ClientCatalogs {
  /** The engine a call on `client` goes through. */
  engineFor(client: unknown): CheckEngine;
  /**
   * Feed one `tools/list` result; `params` tells a continued page (`cursor`)
   * from a fresh listing. Returns the new engine's `ready()` when the catalog
   * changed, so the caller can hold the result until calls see the new sets.
   */
  observeToolList(client: object, params: unknown, result: unknown): Promise<void> | undefined;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

function serverNameOf(client: object): string | undefined {
  const getter = (client as { getServerVersion?: unknown }).getServerVersion;
  if (typeof getter !== 'function') return undefined;
  const info: unknown = getter.call(client);
  return isRecord(info) && typeof info.name === 'string' ? info.name : undefined;
}

function capOf(host: McpHost): number {
  const cap = host.maxCheckedArguments;
  return typeof cap === 'number' && cap >= 0 ? cap : DEFAULT_MAX_CHECKED_ARGUMENTS;
}

export function createClientCatalogs(host: McpHost): ClientCatalogs {
  // Keyed weakly: a closed, dropped client takes its engine with it.
  const catalogs = new WeakMap<object, ClientCatalog>();

  const rememberTools = (
    entry: ClientCatalog,
    params: unknown,
    tools: readonly unknown[],
  ): void => {
    // A listing without a cursor starts over; a cursor continues the one in progress.
    if (!(isRecord(params) && params.cursor !== undefined)) entry.tools.clear();
    for (const tool of tools) {
      if (isRecord(tool) && typeof tool.name === 'string' && !entry.tools.has(tool.name)) {
        entry.tools.set(tool.name, tool);
      }
    }
  };

  return {
    engineFor(client) {
      const derived = isRecord(client) ? catalogs.get(client)?.engine : undefined;
      return derived ?? host.configured;
    },

    observeToolList(client, params, result) {
      if (!host.deriveValueSets || !isRecord(result) || !Array.isArray(result.tools)) {
        return undefined;
      }
      const entry: ClientCatalog = catalogs.get(client) ?? {
        tools: new Map(),
        fingerprint: '',
        engine: undefined,
        warnedCap: false,
      };
      catalogs.set(client, entry);
      rememberTools(entry, params, result.tools);
      const cap = capOf(host);
      const { catalog, dropped, unnamed } = deriveCatalog([...entry.tools.values()], {
        configuredArguments: host.configuredArguments,
        maxCheckedArguments: cap,
        serverName: serverNameOf(client),
      });
      const fingerprint = JSON.stringify(catalog);
      if (fingerprint === entry.fingerprint) return undefined;
      const empty = Object.keys(catalog.sets).length === 0;
      // Nothing derived now or before: the configured engine serves, no host work.
      if (empty && entry.engine === undefined) return undefined;
      if (dropped > 0 && !entry.warnedCap) {
        entry.warnedCap = true;
        host.diag.warn(
          `argcheck: the MCP tool catalog has ${dropped} more enum arguments than ` +
            `mcp.maxCheckedArguments (${cap}); they are not checked.`,
        );
      }
      if (unnamed.length > 0) {
        host.diag.debug(`argcheck: MCP arguments without a usable set name: ${unnamed.join(', ')}`);
      }
      entry.engine = host.deriveEngine(client, catalog);
      entry.fingerprint = fingerprint;
      return entry.engine.ready();
    },
  };
}

const byHost = new WeakMap<McpHost, ClientCatalogs>();

/** One registry per host, shared by its prototype patches and `instrumentClient`. */
export function clientCatalogsFor(host: McpHost): ClientCatalogs {
  let catalogs = byHost.get(host);
  if (catalogs === undefined) {
    catalogs = createClientCatalogs(host);
    byHost.set(host, catalogs);
  }
  return catalogs;
}
