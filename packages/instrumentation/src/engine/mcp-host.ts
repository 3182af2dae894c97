import type { DiagLogger } from '@opentelemetry/api';
import type { CheckEngine, DerivedCatalog, DerivedEngine, McpHost } from '../internal-types.js';
import type { DerivedBuild, Runtime } from './runtime.js';

interface DerivedState {
  catalog: DerivedCatalog;
  /** The runtime the latest build was made from; a new configuration rebuilds. */
  builtWith: Runtime;
  active: DerivedBuild;
  pending: DerivedBuild | undefined;
  generation: number;
  ready: Promise<void>;
}

/**
 * The instrumentation as the MCP integration sees it. Reads the current
 * runtime on every use, so `setConfig` reaches engines already handed out.
 */
export function createMcpHost(runtime: () => Runtime, diag: DiagLogger): McpHost {
  const states = new WeakMap<object, { state: DerivedState; handle: DerivedEngine }>();

  const install = (state: DerivedState, catalog: DerivedCatalog): void => {
    const current = runtime();
    const build = current.derive(catalog);
    const generation = ++state.generation;
    state.catalog = catalog;
    state.builtWith = current;
    state.pending?.retire();
    state.pending = build;
    // The new sets load in the background; until they have, the previous engine checks.
    state.ready = build.ready.then(() => {
      if (state.generation !== generation) return;
      state.active.retire();
      build.activate();
      state.active = build;
      state.pending = undefined;
    });
  };

  return {
    get mode() {
      return runtime().config.mode;
    },
    get configured() {
      return runtime().configured;
    },
    get configuredArguments() {
      return runtime().config.checkedArguments;
    },
    get deriveValueSets() {
      return runtime().config.mcp.deriveValueSets;
    },
    get maxCheckedArguments() {
      return runtime().config.mcp.maxCheckedArguments;
    },
    conversationIdFor: (ctx) => runtime().conversationIdFor(ctx),
    diag,
    deriveEngine(key, catalog) {
      let entry = states.get(key);
      if (entry === undefined) {
        const current = runtime();
        const state: DerivedState = {
          catalog,
          builtWith: current,
          active: {
            engine: current.configured,
            ready: Promise.resolve(),
            activate() {},
            retire() {},
          },
          pending: undefined,
          generation: 0,
          ready: Promise.resolve(),
        };
        const engineNow = (): CheckEngine => {
          if (state.builtWith !== runtime()) install(state, state.catalog);
          return state.active.engine;
        };
        const handle: DerivedEngine = {
          check: (tool, args, ctx) => engineNow().check(tool, args, ctx),
          checkCall(tool, args, context) {
            const engine = engineNow();
            return engine.checkCall !== undefined
              ? engine.checkCall(tool, args, context)
              : engine.check(tool, args, context());
          },
          ready: () => state.ready,
        };
        entry = { state, handle };
        states.set(key, entry);
      }
      install(entry.state, catalog);
      return entry.handle;
    },
  };
}
