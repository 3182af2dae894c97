/**
 * Public types of `@argcheck/core`. Everything a user configures or receives
 * is declared here; implementation types live in `internal-types.ts`.
 */

import type {
  CHECK_ACTIONS,
  CHECK_MODES,
  FETCH_FAILURE_REASONS,
  MISMATCH_SHAPES,
  REFRESH_REJECTIONS,
  REPAIR_DISCLOSURES,
  SOURCE_KINDS,
  UNAVAILABLE_REASONS,
} from './vocabulary.js';

/** Why a check could not run (`UNAVAILABLE_REASONS`): the value set, or `unreadable` arguments. */
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** The shape of a mismatch (`MISMATCH_SHAPES`). Every mismatch has exactly one, tried in this order. */
export type MismatchShape = (typeof MISMATCH_SHAPES)[number];

/** One member of a value set as its owner describes it. */
export interface ValueSetEntry {
  /** The exact string the owning service branches on. */
  value: string;
  /** Other names or labels the owner gives the member (`Charged twice` for `DUPLICATE_CHARGE`). */
  aliases?: readonly string[];
}

/**
 * A compiled, immutable value set: exact membership plus the indexes built at
 * refresh time for normalised matches, aliases and near-miss suggestions.
 */
export interface ValueSet {
  /** Number of members. */
  readonly size: number;
  /** Exact string membership. Prototype keys are members only if the owner listed them. */
  has(value: string): boolean;
  /**
   * Members in ascending code-unit order. A set of more than 4,096 members
   * keeps them packed, not as strings, and builds this array on the first
   * call (about 0.3 s for a million members), then returns the same one.
   */
  members(): readonly string[];
  /**
   * Classify a string that is not a member: `case`, `format`, `alias`,
   * `near_miss` or `invented`, with the canonical member where one is implied.
   */
  classify(value: string): Classification;
  /** Up to `limit` members closest to `value`, closest first. */
  suggest(value: string, limit: number): readonly string[];
}

/** What a non-member string is, relative to a set. */
export interface Classification {
  shape: Exclude<MismatchShape, 'not_string'>;
  /** The member the value stands for (`case`, `format`, `alias`), or the closest member (`near_miss`). */
  canonical?: string;
}

/** Where a source reports from, as it appears on telemetry (`source` attribute). */
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Why a fetch failed (`FETCH_FAILURE_REASONS`). */
export type FetchFailureReason = (typeof FETCH_FAILURE_REASONS)[number];

/** Why a refresh's members were refused (`REFRESH_REJECTIONS`). */
export type RefreshRejection = (typeof REFRESH_REJECTIONS)[number];

/** Context a source receives for one fetch. */
export interface FetchContext {
  /** Aborted when the fetch times out or the provider closes. */
  signal: AbortSignal;
  /**
   * The `version` this source gave with the list the provider holds (see
   * {@link LoadedValueSet}); absent when it holds none, or got it without one.
   * A source that can tell the list is still at this version resolves `load`
   * with `{ unchanged: true }`, and the provider renews what it holds without
   * reading or compiling anything. Each provider passes the version of its own
   * list, so one source object may serve several providers.
   */
  version?: string;
}

/**
 * What `load` may resolve to besides a plain list: the list with a version the
 * provider hands back in the next `ctx.version` (an HTTP validator, a revision
 * number, a timestamp), or word that the list is still `ctx.version`.
 * `{ unchanged: true }` is accepted only in answer to a `ctx.version`; without
 * one the attempt fails as `invalid_payload`.
 */
export type LoadedValueSet =
  { values: readonly ValueSetEntry[]; version?: string } | { unchanged: true };

/** An authoritative source of one value set. */
export interface ValueSetSource {
  readonly kind: SourceKind;
  /**
   * Load the current members, or say they have not changed since
   * `ctx.version`. May reject; the provider handles every failure.
   */
  load(ctx: FetchContext): Promise<readonly ValueSetEntry[] | LoadedValueSet>;
}

/** A clock and timers, injectable so tests never sleep. */
export interface Clock {
  /** Milliseconds since the epoch (or any fixed origin). */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Something the provider did or refused to do; published only to `onEvent`. */
export type ValueSetEvent =
  | {
      type: 'fetch_succeeded';
      set: string;
      source: SourceKind;
      size: number;
      durationMs: number;
      /**
       * Present when the source said the list had not changed (an HTTP 304):
       * the set held was renewed, nothing was read or compiled.
       */
      unchanged?: true;
    }
  | {
      type: 'fetch_failed';
      set: string;
      source: SourceKind;
      reason: FetchFailureReason;
      /** What exactly was wrong, for humans. */
      detail: string;
      durationMs: number;
      /** Milliseconds until the next attempt. */
      retryInMs: number;
    }
  | {
      type: 'refresh_rejected';
      set: string;
      source: SourceKind;
      reason: RefreshRejection;
      detail: string;
    }
  | { type: 'normalisation_collision'; set: string; members: readonly string[]; normalised: string }
  | { type: 'expired'; set: string; source: SourceKind };

export type ValueSetLookup =
  { state: 'fresh' | 'stale'; set: ValueSet } | { state: 'unavailable'; reason: UnavailableReason };

export interface ValueSetStatus {
  name: string;
  source: SourceKind;
  state: 'fresh' | 'stale' | 'unavailable';
  /** Present when `state` is `unavailable`. */
  reason?: UnavailableReason;
  /** Members in the set being served, 0 when none. */
  size: number;
  /** Seconds since the served set was fetched; undefined before the first good fetch. */
  ageSeconds?: number;
  /** The last failed or rejected refresh, if the newest attempt failed. */
  lastError?: string;
  /** Epoch milliseconds of the last good fetch. */
  fetchedAt?: number;
}

export interface ValueSetProviderOptions {
  /** Value sets by name. */
  sources: Readonly<Record<string, ValueSetSource>>;
  /** How long a fetched set is fresh, in milliseconds. @default 300_000 */
  ttlMs?: number;
  /**
   * A load (request, body, parse) slower than this is aborted and counted as
   * `timeout`, in milliseconds. Compiling the set afterwards is not included:
   * it runs in slices that yield to the event loop.
   * @default 2_000
   */
  fetchTimeoutMs?: number;
  /** How long past the TTL a set is served `stale` before it becomes `unavailable: expired`, in milliseconds. @default 3_600_000 */
  maxStaleMs?: number;
  /** A refresh that loses more than this fraction of the members is rejected. @default 0.5 */
  maxShrinkRatio?: number;
  /** Injected time; tests pass a fake. @default the system clock */
  clock?: Clock;
  /**
   * How much earlier than `ttlMs` each refresh may start, as a fraction of
   * `ttlMs`: a refresh is scheduled at `ttlMs × (1 − refreshJitter × random())`
   * after the last good fetch, so that processes started together do not ask
   * the owner at the same moment ever after. The set stays `fresh` until
   * `ttlMs` whatever the draw. From 0 (exactly at `ttlMs`) to 0.5. @default 0.1
   */
  refreshJitter?: number;
  /** Injected randomness in [0, 1) for refresh and backoff jitter. @default Math.random */
  random?: () => number;
  /** Receives every fetch, rejection, collision and expiry. Exceptions it throws are swallowed. */
  onEvent?: (event: ValueSetEvent) => void;
  /**
   * `false`: every set's first fetch starts as the provider is made, so the
   * first check already has it when the owner answers in time. `true`: a
   * set's first fetch waits for its first `get`, `ready` or `refresh`.
   * @default false
   */
  lazy?: boolean;
  /**
   * A provider this one takes over from (a configuration change): each set
   * with the same name and the same source (see `staticValueSet`,
   * `httpValueSet`) starts from what `replaces` holds (members, age, state,
   * failures) instead of cold, under this provider's options; its next
   * refresh is due as this provider's TTL says. Close `replaces` afterwards.
   */
  replaces?: ValueSetProvider;
}

export interface ValueSetProvider {
  /** Synchronous; never waits. Starts a background refresh when the set is cold or due. */
  get(name: string): ValueSetLookup;
  /** Fetch the named sets (all when omitted) and resolve when each has settled; never rejects. */
  ready(names?: readonly string[]): Promise<void>;
  /** Start a refresh now (single flight); resolves when it settles; never rejects. */
  refresh(name: string): Promise<void>;
  /** Size, age, state and last error per set. */
  status(): ValueSetStatus[];
  /** Names of the configured sets. */
  names(): readonly string[];
  /** Stop timers and abort fetches in flight. */
  close(): void;
}

export type CheckMode = (typeof CHECK_MODES)[number];

/** `{ [tool]: { [argumentPath]: setName } }`. Paths are dotted, `[]` marks array elements. */
export type CheckedArguments = Readonly<Record<string, Readonly<Record<string, string>>>>;

export interface ArgumentCheckerOptions {
  /** Where sets come from: a provider, shared with other checkers if you like. */
  valueSets: ValueSetProvider;
  checkedArguments: CheckedArguments;
  /** @default 'observe' */
  mode?: CheckMode;
  /** Sets with at most this many members are listed in full in repair messages. @default 20 */
  listAllUpTo?: number;
  /** How many closest members a repair message names for larger sets. @default 5 */
  suggestionCount?: number;
  /** Upper bound on a repair message, in characters. @default 1_000 */
  maxRepairMessageLength?: number;
  /** How much of the emitted value a repair message quotes, in characters. @default 40 */
  quotePrefixLength?: number;
  /**
   * What a repair message may say about a set's members, by set name (a set
   * not named: `'list'`). A repair message is read by the model and by
   * whoever prompts it: for a private set (active user handles, customer
   * ids) every rejected guess would otherwise reveal real members.
   * - `'list'`: every member when the set has at most `listAllUpTo`, else the
   *   closest members and the set's size.
   * - `'closest'`: the closest members and the set's size, whatever its size.
   * - `'none'`: the argument, the set's name and its size; no member.
   * @throws ArgcheckConfigError `INVALID_OPTION` for another value,
   *   `UNKNOWN_SET` for a name `valueSets` does not serve.
   */
  repairDisclosure?: Readonly<Record<string, RepairDisclosure>>;
}

export type RepairDisclosure = (typeof REPAIR_DISCLOSURES)[number];

export interface CheckContext {
  conversationId?: string;
  toolCallId?: string;
}

/**
 * What the check found at one occurrence of a checked argument. A repeated
 * key in JSON-text arguments is one finding per occurrence, in text order.
 */
export type Finding =
  | {
      argument: string;
      set: string;
      value: unknown;
      status: 'checked';
      inSet: boolean;
      inSetNormalised: boolean;
      shape?: MismatchShape;
      canonical?: string;
      /**
       * In `reject` mode, the members the repair message offers for this
       * value. Only the rejected arguments the message describes have them:
       * the message is bounded, and an argument past what it shows (the
       * 2,000th rejected element of an array) gets none, so that the cost of
       * a check does not grow with the number of rejected values.
       */
      suggestions?: readonly string[];
    }
  | {
      argument: string;
      set: string;
      /** The value, when one could be read; undefined for `unreadable`. */
      value: unknown;
      status: 'unavailable';
      reason: UnavailableReason;
    };

export type CheckAction = (typeof CHECK_ACTIONS)[number];

export interface CheckOutcome {
  tool: string;
  action: CheckAction;
  /** The arguments to send: the input untouched, or a rewritten copy. */
  args: unknown;
  findings: readonly Finding[];
  repairMessage?: string;
}

export interface ArgumentChecker {
  /** Synchronous, total: never throws, never mutates `args`. */
  check(tool: string, args: unknown, ctx?: CheckContext): CheckOutcome;
  readonly mode: CheckMode;
  /** Set names this checker reads, from `checkedArguments`. */
  readonly setNames: readonly string[];
}

export interface HttpValueSetOptions {
  headers?: Readonly<Record<string, string>>;
  /** Pick the entries out of a custom payload; return anything the default parser accepts. */
  select?: (body: unknown) => unknown;
  /** Bodies larger than this are rejected, in bytes. @default 16_777_216 */
  maxBytes?: number;
}
