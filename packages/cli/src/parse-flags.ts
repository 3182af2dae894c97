import { UsageError } from './io.js';

/** Parses a whole number flag no smaller than `min`; anything else is a usage error. */
export function positiveInteger(flag: string, raw: string | undefined, min: number): number {
  const value = Number(raw);
  if (
    raw === undefined ||
    !/^\d+$/.test(raw.trim()) ||
    !Number.isSafeInteger(value) ||
    value < min
  ) {
    throw new UsageError(`${flag} must be a whole number of at least ${min}, not "${raw}"`);
  }
  return value;
}
