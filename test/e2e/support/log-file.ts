/** Comparing log records as multisets of their attributes (the records come from `readLogFile`, @argcheck/testing/otlp). */

/** A record's attributes as one canonical string (keys sorted), for multiset comparisons. */
export function canonical(attributes: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(attributes)
        .sort()
        .map((k) => [k, attributes[k]]),
    ),
  );
}

/** Counts of each canonical string. */
export function multiset(items: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
}
