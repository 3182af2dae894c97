/**
 * The closed lists of the contract, each defined once. Types derive from
 * them, and so does everything that counts, reports or renders their
 * members: a new member is a compile error wherever it is not handled.
 */

/** Mismatch shapes, a partition: every mismatch has exactly one, tried in this order. */
export const MISMATCH_SHAPES = [
  'case',
  'format',
  'alias',
  'near_miss',
  'invented',
  'not_string',
] as const;

/**
 * Why a check could not run. All but the last say why the value set cannot
 * be used right now; `unreadable` says the call's arguments are a JSON text
 * that is not a JSON object, so no argument could be read
 * (docs/decisions/0004-json-text-arguments.md). A provider never reports it.
 */
export const UNAVAILABLE_REASONS = [
  'cold',
  'fetch_failed',
  'timeout',
  'invalid_payload',
  'expired',
  'unknown_set',
  'unreadable',
] as const;

/** What the checker does with a mismatch: measure only, rewrite variants, or also reject. */
export const CHECK_MODES = ['observe', 'normalise', 'reject'] as const;

/** What the caller does with a call after the check. */
export const CHECK_ACTIONS = ['call', 'call_rewritten', 'reject'] as const;

/** What a repair message may say about a set's members (`repairDisclosure`). */
export const REPAIR_DISCLOSURES = ['list', 'closest', 'none'] as const;

/** Where a value set's members come from (`ValueSetSource.kind`). */
export const SOURCE_KINDS = ['http', 'function', 'static', 'tool_schema'] as const;

/**
 * Why a fetch failed (`fetch_failed` events): each is also the reason checks
 * against a set that was never fetched report while it lasts.
 */
export const FETCH_FAILURE_REASONS = ['fetch_failed', 'timeout', 'invalid_payload'] as const;

/**
 * Why a refresh's members were refused and the set held was kept
 * (`refresh_rejected` events). `malformed` and `too_large` are found while the
 * payload is read; `empty` and `shrunk` when it is judged against the set held.
 */
export const REFRESH_REJECTIONS = ['empty', 'shrunk', 'malformed', 'too_large'] as const;
