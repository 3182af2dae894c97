/**
 * What the framework patches share with the instrumentation: its wrapping
 * (`_wrap` / `_unwrap` through `wrapping.ts`), and the supported version
 * ranges. Module definitions accept any version so that one outside the
 * range is seen, left unpatched and reported once through the diagnostics
 * logger, instead of being skipped in silence.
 */
import type { DiagLogger } from '@opentelemetry/api';
import type { Patch } from '../wrapping.js';
import type { FrameworkHost, ToolsState } from './tools-map.js';

export interface PatchHost extends FrameworkHost {
  readonly tools: ToolsState;
  wrap(target: object, name: string, patch: Patch): void;
  unwrap(target: object, name: string): void;
}

/** A supported range as major versions from `min` (a full version) up to, not including, `belowMajor`. */
export interface SupportedRange {
  readonly min: readonly [major: number, minor: number, patch: number];
  readonly belowMajor: number;
}

export function rangeText({ min, belowMajor }: SupportedRange): string {
  return `>=${min.join('.')} <${belowMajor}`;
}

function parts(version: string): number[] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match === null ? undefined : match.slice(1, 4).map(Number);
}

/** Whether `version` is in `range`; a prerelease of a supported version counts as it. */
export function inRange(version: string | undefined, range: SupportedRange): boolean {
  const v = version === undefined ? undefined : parts(version);
  if (v === undefined) return false;
  const [major = 0] = v;
  if (major >= range.belowMajor) return false;
  for (let i = 0; i < 3; i++) {
    const a = v[i] ?? 0;
    const b = range.min[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

const reported = new WeakMap<DiagLogger, Set<string>>();

/** Says, once per package and logger, that a loaded version is not patched. */
export function reportUnsupported(
  diag: DiagLogger,
  name: string,
  version: string | undefined,
  range: SupportedRange,
): void {
  let seen = reported.get(diag);
  if (seen === undefined) reported.set(diag, (seen = new Set()));
  if (seen.has(name)) return;
  seen.add(name);
  diag.warn(
    `argcheck: ${name} ${version ?? '(unknown version)'} is outside the supported range ` +
      `${rangeText(range)}; its tool calls are not checked. Use a supported version.`,
  );
}
