/**
 * A framework's module definition for `init()`: files of one package, hooked
 * whatever the installed version, so that a version outside the supported
 * range is left unpatched and reported once through the diagnostics logger
 * instead of being skipped in silence.
 */
import type { DiagLogger } from '@opentelemetry/api';
import type { Patch } from '../wrapping.js';
import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';

/** `lowest <= version < below`, release versions only, as `major.minor.patch`. */
export interface VersionRange {
  readonly lowest: string;
  readonly below: string;
}

/** `InstrumentationBase`'s wrapping of prototypes (see `wrapping.ts`), as the instrumentation lends it. */
export interface PrototypeWrapping {
  wrap(target: object, name: string, patch: Patch): void;
  unwrap(target: object, name: string): void;
}

export interface FrameworkModule {
  readonly packageName: string;
  readonly range: VersionRange;
  /** Paths inside the package (`dist/tool.js`): each build that defines the patched function. */
  readonly files: readonly string[];
  patch(moduleExports: unknown): void;
  unpatch(moduleExports: unknown): void;
}

function parts(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

export function inRange(version: string | undefined, range: VersionRange): boolean {
  const v = version === undefined ? undefined : parts(version);
  const lowest = parts(range.lowest);
  const below = parts(range.below);
  if (v === undefined || lowest === undefined || below === undefined) return false;
  return compare(v, lowest) >= 0 && compare(v, below) < 0;
}

export function frameworkDefinition(
  m: FrameworkModule,
  diag: DiagLogger,
): InstrumentationNodeModuleDefinition {
  const reported = new Set<string>();
  const patch = <T>(moduleExports: T, version?: string): T => {
    if (inRange(version, m.range)) {
      m.patch(moduleExports);
    } else if (!reported.has(String(version))) {
      reported.add(String(version));
      diag.warn(
        `argcheck: ${m.packageName} ${version ?? '(unknown version)'} is outside the supported ` +
          `range >=${m.range.lowest} <${m.range.below}; its tool calls are not checked. ` +
          'Use a supported version, or the explicit entry point (docs/frameworks.md).',
      );
    }
    return moduleExports;
  };
  const unpatch = <T>(moduleExports: T): T => {
    m.unpatch(moduleExports);
    return moduleExports;
  };
  return new InstrumentationNodeModuleDefinition(
    m.packageName,
    ['*'],
    undefined,
    undefined,
    m.files.map(
      (file) =>
        new InstrumentationNodeModuleFile(`${m.packageName}/${file}`, ['*'], patch, unpatch),
    ),
  );
}
