/**
 * Hooks by absolute path, one set for the process, shared by every instance.
 *
 * OpenTelemetry gives each instrumentation whose module definitions name an
 * absolute path hooks of its own: a require-in-the-middle `Hook`, which wraps
 * `Module.prototype.require` and resolves every id required anywhere, and an
 * import-in-the-middle hook. They are never removed, not on `disable()` and
 * not when the instance is dropped. With several instances (a test suite
 * makes one per test) the require wrappers pile up, every `require` resolves
 * once per wrapper, and a deep require overflows the stack.
 *
 * So an instance's definitions by absolute path are not handed to
 * OpenTelemetry. They listen here instead: one carrier instrumentation per
 * new set of paths, made the first time an instance asks for them, hooks each
 * path once and hands every load to the instances listening for that path.
 * A listener patches or not as its instance is enabled; the instance itself
 * patches and unpatches what it was handed when it is enabled and disabled.
 */
import { isAbsolute, parse } from 'node:path';
import {
  InstrumentationBase,
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import { PACKAGE_VERSION } from '../version.js';

/** Given a module's exports as it loads; returns what the application gets. */
export type PathListener = (exports: unknown) => unknown;

const listeners = new Map<string, Set<PathListener>>();

function dispatch(path: string, exports: unknown): unknown {
  let current = exports;
  for (const listener of listeners.get(path) ?? []) {
    try {
      current = listener(current);
    } catch {
      // A listener's failure leaves the module as it was; the rest still see it.
    }
  }
  return current;
}

/** The paths a carrier is being made for; `init()` runs inside `super()`, before any field is set. */
let making: readonly string[] = [];

/** Hooks `making` by absolute path, the way an instrumentation's definitions would, for the whole process. */
class PathCarrier extends InstrumentationBase {
  constructor() {
    super('@argcheck/instrumentation/path-hooks', PACKAGE_VERSION, {});
  }

  protected override init(): InstrumentationModuleDefinition[] {
    // A hook by absolute path reports the file's base name and no version (module-spec.ts).
    return making.map(
      (path) =>
        new InstrumentationNodeModuleDefinition(path, ['*'], undefined, undefined, [
          new InstrumentationNodeModuleFile(
            parse(path).name,
            ['*'],
            (exports: unknown) => dispatch(path, exports),
            () => undefined,
          ),
        ]),
    );
  }
}

/** Carriers made so far; kept so that their hooks are not collected. */
const carriers: PathCarrier[] = [];

/**
 * Call `listener` with the exports of the module at `path` whenever it
 * loads, from now on. Returns the function that stops it. Paths no carrier
 * hooks yet get one (`InstrumentationBase` enables itself when made).
 */
export function listenForPath(path: string, listener: PathListener): () => void {
  let set = listeners.get(path);
  if (set === undefined) {
    set = new Set();
    listeners.set(path, set);
    making = [path];
    try {
      carriers.push(new PathCarrier());
    } finally {
      making = [];
    }
  }
  set.add(listener);
  const own = set;
  return () => {
    own.delete(listener);
  };
}

/** The paths hooked for the process so far. */
export function hookedPaths(): string[] {
  return [...listeners.keys()];
}

/** Whether a module definition hooks an absolute path (and so goes through this file). */
export function byAbsolutePath(definition: InstrumentationModuleDefinition): boolean {
  return isAbsolute(definition.name);
}

/** One instance's definitions by absolute path, through the shared hooks. */
export interface PathHooks {
  /** Listen (the first time), and patch again what was loaded while disabled. */
  enable(): void;
  /** Unpatch what was loaded; listeners stay, and pass loads through while disabled. */
  disable(): void;
  /** Stop listening for good. */
  close(): void;
}

export function hookByPath(
  definitions: readonly InstrumentationModuleDefinition[],
  isEnabled: () => boolean,
): PathHooks {
  const files = definitions.flatMap((d) => d.files.map((file) => ({ path: d.name, file })));
  let stops: (() => void)[] | undefined;
  return {
    enable() {
      if (stops === undefined) {
        stops = files.map(({ path, file }) =>
          listenForPath(path, (exports) => {
            file.moduleExports = exports;
            return isEnabled() ? file.patch(exports) : exports;
          }),
        );
        return;
      }
      for (const { file } of files) {
        if (file.moduleExports !== undefined) file.patch(file.moduleExports);
      }
    },
    disable() {
      for (const { file } of files) {
        if (file.moduleExports !== undefined) file.unpatch(file.moduleExports);
      }
    },
    close() {
      for (const stop of stops ?? []) stop();
      stops = [];
    },
  };
}
