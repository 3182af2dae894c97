/**
 * When registration cannot reach a supported module, something is done or
 * said, so that a dashboard of zeros is never the only sign of it:
 *
 * - Modules loaded by `require` before the instrumentation was enabled are
 *   patched in place, from the `require` cache: hooks patch modules as they
 *   load, so until something required them again their calls would go
 *   unchecked. (OpenTelemetry's own check, `_warnOnPreloadedModules`, reads
 *   `globalThis.require`, which Node does not define, so it never fires; and
 *   require-in-the-middle does not call a hook registered after a module
 *   went through it.) When patching in place cannot reach what the
 *   application holds (the patch had to make a copy), a warning says so.
 * - The application is an ES module, a supported module is installed, and
 *   the OpenTelemetry loader hook is not registered: its imports are never
 *   patched, and a warning names the modules and the fix. Only the ESM build
 *   of this package looks (the CommonJS build is what `require` gives, and
 *   require hooks need no loader).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, isAbsolute, join } from 'node:path';
import type { DiagLogger } from '@opentelemetry/api';
import type {
  InstrumentationModuleDefinition,
  InstrumentationModuleFile,
} from '@opentelemetry/instrumentation';
import type { ModuleSpec } from './module-spec.js';
import { installedRoots, packageRootOf, resolutionBases } from './resolution.js';

/** A spec and the definitions `moduleDefinitions` made of it. */
export interface SpecDefinitions {
  readonly spec: ModuleSpec;
  readonly definitions: readonly InstrumentationModuleDefinition[];
}

function versionAt(root: string): string | undefined {
  try {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

interface CachedModule {
  loaded?: boolean;
  exports?: unknown;
}

/** What a definition hooks: a file of it, or its main entry (the definition itself). */
type Hooked = InstrumentationModuleFile | InstrumentationModuleDefinition;

/** The modules a definition hooks, as absolute paths with the version of their copy. */
function hookedModules(
  spec: ModuleSpec,
  definition: InstrumentationModuleDefinition,
  bases: readonly string[],
): { hooked: Hooked; path: string; version: string | undefined }[] {
  if (isAbsolute(definition.name)) {
    const root = packageRootOf(definition.name, spec.packageName);
    const version = root === undefined ? undefined : versionAt(root);
    return definition.files.map((file) => ({ hooked: file, path: definition.name, version }));
  }
  const found: { hooked: Hooked; path: string; version: string | undefined }[] = [];
  for (const root of installedRoots(spec.packageName, undefined, bases)) {
    const version = versionAt(root);
    for (const file of definition.files) {
      const inside = file.name.slice(spec.packageName.length + 1);
      found.push({ hooked: file, path: join(root, inside), version });
    }
    if (definition.files.length === 0 && definition.patch !== undefined) {
      try {
        const main = createRequire(join(root, 'package.json')).resolve(spec.packageName);
        found.push({ hooked: definition, path: main, version });
      } catch {
        // No main entry under `require` (an ESM-only package): nothing it could have loaded.
      }
    }
  }
  return found;
}

/**
 * Patch, in place, the files of `specs` that `require` loaded before this
 * instrumentation was enabled and its hooks have not seen. Says (debug) what
 * it patched, and warns when a patch could not reach what the application
 * holds. Never throws.
 */
export function patchLoadedModules(entries: readonly SpecDefinitions[], diag: DiagLogger): void {
  const bases = resolutionBases();
  let cache: Record<string, CachedModule | undefined>;
  try {
    cache = createRequire(bases[0] ?? join(process.cwd(), 'x.js')).cache;
  } catch {
    return;
  }
  const warned = new Set<string>();
  for (const { spec, definitions } of entries) {
    for (const definition of definitions) {
      let modules;
      try {
        modules = hookedModules(spec, definition, bases);
      } catch {
        continue;
      }
      for (const { hooked, path, version } of modules) {
        const cached = cache[path];
        if (hooked.moduleExports !== undefined || cached?.loaded !== true) continue;
        try {
          const exports = cached.exports;
          const patched: unknown = hooked.patch?.(exports, version);
          hooked.moduleExports = exports;
          definition.moduleVersion = version;
          diag.debug(`argcheck: ${path} was loaded before the instrumentation; patched in place`);
          if (patched !== exports && !warned.has(spec.packageName)) {
            warned.add(spec.packageName);
            diag.warn(
              `argcheck: ${spec.packageName} was loaded before the instrumentation was enabled, ` +
                'so what the application took from it is not patched and its tool calls are ' +
                'not checked. To fix, register the instrumentation before the application ' +
                'loads it (NodeSDK or registerInstrumentations first, for example in a file ' +
                `given to node --require or --import); or use ${spec.explicit}.`,
            );
          }
        } catch (error) {
          diag.debug(`argcheck: ${path} could not be patched in place`, error);
        }
      }
    }
  }
}

/** Whether the application's entry point is an ES module (`.mjs`, or `.js` under `"type": "module"`). */
export function entryIsModule(entry: string | undefined = process.argv[1]): boolean {
  if (entry === undefined) return false;
  const ext = extname(entry);
  if (ext === '.mjs' || ext === '.mts') return true;
  if (ext === '.cjs' || ext === '.cts') return false;
  for (let dir = dirname(entry), i = 0; i < 32; dir = dirname(dir), i++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    if (dirname(dir) === dir) break;
  }
  return false;
}

/**
 * Whether the loader hook is registered: after one module is imported, the
 * import-in-the-middle copy OpenTelemetry uses has wrapped at least one.
 * `undefined` when that cannot be told (another layout of import-in-the-middle).
 */
async function loaderHookActive(probe: () => Promise<unknown>): Promise<boolean | undefined> {
  await probe();
  for (const base of resolutionBases()) {
    try {
      const load = createRequire(createRequire(base).resolve('@opentelemetry/instrumentation'));
      const root = packageRootOf(load.resolve('import-in-the-middle'), 'import-in-the-middle');
      if (root === undefined) continue;
      const registry = load(join(root, 'lib', 'register.js')) as { toHook?: unknown };
      if (Array.isArray(registry.toHook)) return registry.toHook.length > 0;
    } catch {
      // Not resolvable from this base; the next may be.
    }
  }
  return undefined;
}

/**
 * In an ES module application, warn once when a supported module is
 * installed and the loader hook is not registered. `probe` imports a module
 * through the ESM loader (the ESM build's dynamic `import`). Never rejects.
 */
export async function warnWithoutLoaderHook(
  specs: readonly ModuleSpec[],
  diag: DiagLogger,
  probe: () => Promise<unknown>,
): Promise<void> {
  try {
    if (!entryIsModule()) return;
    const installed = [
      ...new Set(
        specs
          .filter((spec) => installedRoots(spec.packageName).length > 0)
          .map((spec) => spec.packageName),
      ),
    ];
    if (installed.length === 0 || (await loaderHookActive(probe)) !== false) return;
    const explicit = [
      ...new Set(specs.filter((s) => installed.includes(s.packageName)).map((s) => s.explicit)),
    ];
    diag.warn(
      `argcheck: this ES module application has ${installed.join(', ')} installed, but the ` +
        'OpenTelemetry loader hook is not registered, so imports of them are not patched and ' +
        'their tool calls are not checked. To fix, start node with --import a file that calls ' +
        "module.register('@opentelemetry/instrumentation/hook.mjs', import.meta.url) and then " +
        `registers the instrumentation; or use the explicit entry points: ${explicit.join('; ')}.`,
    );
  } catch {
    // Diagnostics never take the application down.
  }
}
