import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import type { ValueSetCompiler } from '../match/compile-value-set.js';
import type {
  ValueSetEvent,
  ValueSetProvider,
  ValueSetProviderOptions,
  ValueSetSource,
} from '../types.js';
import type { ResolvedOptions } from './internal-types.js';
import { systemClock } from './system-clock.js';
import { SOURCE_KINDS } from '../vocabulary.js';

// Node fires a timer set longer than this at once (with a warning), so a
// longer TTL or stale window would silently become a refresh loop.
const MAX_TIMER_MS = 2 ** 31 - 1;
const KNOWN_SOURCE_KINDS: ReadonlySet<string> = new Set(SOURCE_KINDS);
const SOURCE_KIND_LIST = SOURCE_KINDS.map((kind) => `'${kind}'`).join(', ');

/** Validate the options once, at construction, so nothing can fail later on a bad setting. */
export function resolveOptions(
  options: ValueSetProviderOptions,
  compile: ValueSetCompiler,
): {
  resolved: ResolvedOptions;
  sources: [string, ValueSetSource][];
  lazy: boolean;
  replaces: ValueSetProvider | undefined;
} {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption('createValueSetProvider(options) needs an options object');
  }
  const { clock = systemClock, random = Math.random, onEvent } = options;
  if (!isClock(clock)) {
    throw invalidOption('clock must have now(), setTimeout(fn, ms) and clearTimeout(handle)');
  }
  if (typeof random !== 'function') throw invalidOption('random must be a function () => [0, 1)');
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    throw invalidOption('onEvent must be a function (event) => void');
  }
  const { lazy = false, replaces } = options;
  if (typeof lazy !== 'boolean')
    throw invalidOption(`lazy must be true or false, got ${show(lazy)}`);
  if (replaces !== undefined && (typeof replaces !== 'object' || replaces === null)) {
    throw invalidOption('replaces must be a provider made by createValueSetProvider');
  }
  return {
    lazy,
    replaces,
    resolved: {
      ttlMs: duration('ttlMs', options.ttlMs, 300_000, 1),
      fetchTimeoutMs: duration('fetchTimeoutMs', options.fetchTimeoutMs, 2_000, 1),
      maxStaleMs: duration('maxStaleMs', options.maxStaleMs, 3_600_000, 0),
      maxShrinkRatio: ratio('maxShrinkRatio', options.maxShrinkRatio, 0.5, 1),
      refreshJitter: ratio('refreshJitter', options.refreshJitter, 0.1, 0.5),
      clock,
      random: () => unitInterval(random),
      emit: (event: ValueSetEvent) => {
        try {
          onEvent?.(event);
        } catch {
          // A listener's bug must not break refreshing; the listener owns its errors.
        }
      },
      compile,
    },
    sources: validateSources(options.sources),
  };
}

function validateSources(sources: unknown): [string, ValueSetSource][] {
  if (typeof sources !== 'object' || sources === null || Array.isArray(sources)) {
    throw invalidOption(
      'sources must be an object of set name to source, e.g. { refund_reason: httpValueSet(url) }',
    );
  }
  const entries = Object.entries(sources as Record<string, unknown>);
  for (const [name, source] of entries) {
    const s = source as Partial<ValueSetSource> | null;
    if (typeof s !== 'object' || s === null || typeof s.load !== 'function') {
      throw new ArgcheckConfigError(
        ErrorCode.INVALID_SOURCE,
        `sources.${name} has no load(ctx) function; build it with httpValueSet, functionValueSet or staticValueSet`,
      );
    }
    if (typeof s.kind !== 'string' || !KNOWN_SOURCE_KINDS.has(s.kind)) {
      throw new ArgcheckConfigError(
        ErrorCode.INVALID_SOURCE,
        `sources.${name}.kind must be one of ${SOURCE_KIND_LIST}, got ${show(s.kind)}`,
      );
    }
  }
  return entries as [string, ValueSetSource][];
}

function duration(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > MAX_TIMER_MS) {
    throw invalidOption(
      `${name} must be a number of milliseconds from ${min} to ${MAX_TIMER_MS}, got ${show(value)}`,
    );
  }
  return value;
}

function ratio(name: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0 && value <= max)) {
    throw invalidOption(`${name} must be a number from 0 to ${max}, got ${show(value)}`);
  }
  return value;
}

function isClock(clock: unknown): boolean {
  if (typeof clock !== 'object' || clock === null) return false;
  const c = clock as Record<string, unknown>;
  return (
    typeof c.now === 'function' &&
    typeof c.setTimeout === 'function' &&
    typeof c.clearTimeout === 'function'
  );
}

// Backoff must get a usable number even from a broken generator.
function unitInterval(random: () => number): number {
  try {
    const r = random();
    return r >= 0 && r < 1 ? r : 0.5;
  } catch {
    return 0.5;
  }
}

function show(value: unknown): string {
  return typeof value === 'string'
    ? JSON.stringify(value)
    : typeof value === 'number'
      ? String(value)
      : typeof value;
}

function invalidOption(message: string): ArgcheckConfigError {
  return new ArgcheckConfigError(ErrorCode.INVALID_OPTION, `createValueSetProvider: ${message}`);
}
