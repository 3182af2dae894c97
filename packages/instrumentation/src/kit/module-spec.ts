/**
 * The one way an integration says what it patches: this package, these
 * versions, these files, this patch. Module definitions hook the package
 * whatever version is installed, so that a version outside the range is seen,
 * left unpatched and reported once through the diagnostics logger instead of
 * being skipped in silence.
 */
import { parse } from 'node:path';
import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import type { IntegrationName } from '../semconv.js';
import type { Host } from './host.js';
import { inRange } from './version-range.js';
import type { VersionRange } from './version-range.js';

/** A copy of the package hooked by absolute path, its version read from its own manifest. */
export interface InstalledCopy {
  readonly version: string;
  /** Absolute paths of the files to patch. */
  readonly files: readonly string[];
}

export interface ModuleSpec {
  /** Which integration's calls the patched code reaches (`tool_argument_call`). */
  readonly integration: IntegrationName;
  readonly packageName: string;
  readonly range: VersionRange;
  /** Files inside the package whose exports are patched (`dist/tool.js`); none: its main entry. */
  readonly files?: readonly string[];
  /**
   * Installed copies to hook by absolute path as well, where hooks by name
   * cannot reach (require-in-the-middle skips every file hook of a package
   * whose `main` does not resolve).
   */
  readonly installs?: readonly InstalledCopy[];
  /** Patch loaded exports; returns what the application is given (the exports, or a patchable copy). */
  patch(moduleExports: unknown): unknown;
  unpatch(moduleExports: unknown): void;
  /** How an application the hooks cannot reach gets its calls checked, for diagnostics. */
  readonly explicit: string;
}

const patchedSpecs = new WeakSet<ModuleSpec>();

/** Whether a hook has patched a module of `spec` (the load warnings leave it alone). */
export function wasPatched(spec: ModuleSpec): boolean {
  return patchedSpecs.has(spec);
}

/** The hook definitions of one spec, for `init()`. */
export function moduleDefinitions(spec: ModuleSpec, host: Host): InstrumentationModuleDefinition[] {
  const patchAt =
    (fixed?: string) =>
    <T>(moduleExports: T, reported?: string): T => {
      const version = fixed ?? reported;
      if (!inRange(version, spec.range)) {
        host.unsupported(spec.packageName, version, spec.range);
        return moduleExports;
      }
      patchedSpecs.add(spec);
      host.seen(spec.integration);
      return spec.patch(moduleExports) as T;
    };
  const unpatch = <T>(moduleExports: T): T => {
    spec.unpatch(moduleExports);
    return moduleExports;
  };
  const byName =
    spec.files === undefined
      ? new InstrumentationNodeModuleDefinition(spec.packageName, ['*'], patchAt(), unpatch)
      : new InstrumentationNodeModuleDefinition(
          spec.packageName,
          ['*'],
          undefined,
          undefined,
          spec.files.map(
            (file) =>
              new InstrumentationNodeModuleFile(
                `${spec.packageName}/${file}`,
                ['*'],
                patchAt(),
                unpatch,
              ),
          ),
        );
  // A hook by absolute path reports the file's base name and no version.
  const byPath = (spec.installs ?? []).flatMap((copy) =>
    copy.files.map(
      (path) =>
        new InstrumentationNodeModuleDefinition(path, ['*'], undefined, undefined, [
          new InstrumentationNodeModuleFile(
            parse(path).name,
            ['*'],
            patchAt(copy.version),
            unpatch,
          ),
        ]),
    ),
  );
  return [byName, ...byPath];
}
