import type {
  RefreshRejection,
  ValueSet,
  ValueSetLookup,
  ValueSetSource,
  ValueSetStatus,
} from '../types.js';
import { retryDelayMs } from './backoff.js';
import type { AttemptOutcome, ResolvedOptions } from './internal-types.js';
import { judgeRefresh, type Verdict } from './judge-refresh.js';
import { UNAVAILABLE } from './lookups.js';
import { OneShotTimer } from './one-shot-timer.js';
import { startAttempt } from './start-attempt.js';

const SETTLED: Promise<void> = Promise.resolve();

/**
 * A shrink past `maxShrinkRatio` is the owner's real set once it has been
 * refused this many times in a row, over at least one TTL: retries after a
 * refusal come within seconds, and an owner mid-deploy is back within minutes.
 */
const SHRINK_PERSISTS = 3;

type FailureReason = Extract<AttemptOutcome, { ok: false }>['reason'];

/**
 * One named set: what `get()` returns for it, and the timers that change that.
 *
 * `lookup` is only ever replaced by timers and by settled attempts, so reading
 * it needs no clock: fresh → stale when the TTL timer fires, stale → expired
 * when the stale window's timer fires. The refresh starts a little before the
 * TTL, at a jittered time (`scheduleRefresh`), so a good owner keeps the set
 * fresh throughout. After a failed attempt the next one is scheduled with
 * backoff; at most one attempt runs at a time.
 */
export class ValueSetSlot {
  /** What `get()` returns; one preallocated object per state. */
  lookup: ValueSetLookup = UNAVAILABLE.cold;
  /** True until the first attempt starts; `get()` starts it. */
  idle = true;

  private served: { set: ValueSet; fresh: ValueSetLookup; stale: ValueSetLookup } | undefined;
  /** The version the source gave with `served`, handed back on each load. */
  private version: string | undefined;
  private fetchedAt: number | undefined;
  private lastError: string | undefined;
  private failures = 0;
  /**
   * The attempt's draw from `random`, made as it starts and used when it
   * ends (refresh jitter after a good load, the retry delay after a failed
   * one). Drawn at the start, several sets refreshing together draw in the
   * order their timers fired, not in the order their loads happened to end:
   * with an injected clock and randomness the provider is then deterministic.
   */
  private draw = 0;
  /**
   * The largest set size published since the last shrink the guard let
   * through: the shrink guard compares with it, not with the set served
   * last, so a run of refreshes that each lose less than `maxShrinkRatio`
   * cannot walk the set down (1,000 → 600 → 360 → …).
   */
  private shrinkReference: number | undefined;
  /** Refreshes refused as `shrunk` in a row, and when the first of them was refused. */
  private shrinkRefusals = 0;
  private shrinkSince: number | undefined;
  private attempted = false;
  private closed = false;
  private inFlight: Promise<void> | undefined;
  private cancelInFlight: (() => void) | undefined;
  private readonly phaseTimer: OneShotTimer;
  private readonly retryTimer: OneShotTimer;

  constructor(
    readonly name: string,
    readonly source: ValueSetSource,
    private readonly options: ResolvedOptions,
  ) {
    this.phaseTimer = new OneShotTimer(options.clock);
    this.retryTimer = new OneShotTimer(options.clock);
  }

  /** Start the first attempt in the background. */
  start(): void {
    void this.refresh();
  }

  /**
   * Continue from what `previous` (the same set, from the same source, in the
   * provider this one replaces) holds: its members, version, age, failures
   * and state, under this slot's options. A set it served goes on being
   * served (fresh while its age is under this TTL, then stale, then expired,
   * as if this slot had fetched it), with its next refresh due as this TTL
   * says; a set it had not loaded yet, or could not, is fetched now. Called
   * once, before the slot is used; `previous` is closed afterwards.
   */
  adopt(previous: ValueSetSlot): void {
    this.version = previous.version;
    this.fetchedAt = previous.fetchedAt;
    this.failures = previous.failures;
    this.lastError = previous.lastError;
    this.shrinkReference = previous.shrinkReference;
    this.shrinkRefusals = previous.shrinkRefusals;
    this.shrinkSince = previous.shrinkSince;
    this.attempted = previous.attempted;
    if (previous.idle) return;
    this.idle = false;
    const served = previous.lookup.state === 'unavailable' ? undefined : previous.served;
    if (served === undefined || this.fetchedAt === undefined) {
      if (previous.lookup.state === 'unavailable') this.lookup = previous.lookup;
      void this.refresh();
      return;
    }
    this.served = served;
    const { clock, ttlMs, maxStaleMs, random } = this.options;
    const age = Math.max(0, clock.now() - this.fetchedAt);
    if (age < ttlMs) {
      this.lookup = served.fresh;
      this.draw = random();
      this.scheduleRefresh(age);
      return;
    }
    if (age < ttlMs + maxStaleMs) {
      this.lookup = served.stale;
      this.phaseTimer.start(ttlMs + maxStaleMs - age, () => this.expire());
    } else {
      this.lookup = UNAVAILABLE.expired;
    }
    void this.refresh();
  }

  /** Run an attempt now, or join the one in flight. Never rejects. */
  refresh(): Promise<void> {
    if (this.closed) return SETTLED;
    this.idle = false;
    return this.inFlight ?? this.attempt();
  }

  /** Settles once the set has had at least one attempt. Never rejects. */
  ready(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    return this.attempted ? SETTLED : this.refresh();
  }

  status(now: number): ValueSetStatus {
    const status: ValueSetStatus = {
      name: this.name,
      source: this.source.kind,
      state: this.lookup.state,
      size: this.servedSet()?.size ?? 0,
    };
    if (this.lookup.state === 'unavailable') status.reason = this.lookup.reason;
    if (this.fetchedAt !== undefined) {
      status.ageSeconds = (now - this.fetchedAt) / 1000;
      status.fetchedAt = this.fetchedAt;
    }
    if (this.lastError !== undefined) status.lastError = this.lastError;
    return status;
  }

  /** Stop for good. What is held is still served, as `stale` since nothing renews it. */
  close(): void {
    this.closed = true;
    this.idle = false;
    this.phaseTimer.stop();
    this.retryTimer.stop();
    this.cancelInFlight?.();
    if (this.served && this.lookup === this.served.fresh) this.lookup = this.served.stale;
  }

  private attempt(): Promise<void> {
    const { clock, fetchTimeoutMs, random } = this.options;
    this.retryTimer.stop();
    this.draw = random();
    const startedAt = clock.now();
    const attempt = startAttempt(this.source, this.version, clock, fetchTimeoutMs);
    const compiling = new AbortController();
    this.cancelInFlight = () => {
      attempt.cancel();
      compiling.abort(abortError('the value-set provider was closed'));
    };
    this.inFlight = attempt.outcome.then((outcome) =>
      this.settle(outcome, clock.now() - startedAt, compiling.signal),
    );
    return this.inFlight;
  }

  /**
   * Ends the attempt: judges (compiles) a loaded list, then publishes or fails.
   * The attempt stays in flight while the set compiles, so refresh() joins it
   * and ready() waits for the publish; the fetch timeout has ended by then
   * (it bounds the owner, not the compile), and `durationMs` is the load's.
   * After close() the compile is abandoned and nothing is published.
   */
  private async settle(
    outcome: AttemptOutcome,
    durationMs: number,
    signal: AbortSignal,
  ): Promise<void> {
    const verdict =
      outcome.ok && !outcome.unchanged && !this.closed
        ? await judgeRefresh(outcome.collected, () => this.shrinkGuard(), this.options, signal)
        : undefined;
    this.inFlight = undefined;
    this.cancelInFlight = undefined;
    if (this.closed) return;
    this.attempted = true;
    if (!outcome.ok) {
      if (outcome.rejection) this.reject(outcome.rejection, outcome.detail);
      return this.fail(outcome.reason, outcome.detail, durationMs);
    }
    if (outcome.unchanged) return this.renew(durationMs);
    if (verdict?.ok) return this.publish(verdict, outcome.version, durationMs);
    if (verdict) {
      if (verdict.rejection === 'shrunk') {
        this.shrinkRefusals += 1;
        this.shrinkSince ??= this.options.clock.now();
      }
      this.reject(verdict.rejection, verdict.detail);
      this.fail('invalid_payload', verdict.detail, durationMs);
    }
  }

  /**
   * What the shrink guard compares a refresh with: the reference (never below
   * the set served), and whether the shrink has persisted — refused
   * `SHRINK_PERSISTS - 1` times in a row, the first at least a TTL ago, the
   * next such list is the owner's real set, and is accepted. Nothing to
   * compare with once the set expired.
   */
  private shrinkGuard(): { size: number; allowShrink: boolean } | undefined {
    const served = this.servedSet()?.size;
    if (served === undefined) return undefined;
    const since = this.shrinkSince;
    return {
      size: Math.max(served, this.shrinkReference ?? 0),
      allowShrink:
        this.shrinkRefusals >= SHRINK_PERSISTS - 1 &&
        since !== undefined &&
        this.options.clock.now() - since >= this.options.ttlMs,
    };
  }

  private publish(
    verdict: Extract<Verdict, { ok: true }>,
    version: string | undefined,
    durationMs: number,
  ): void {
    const { set, collisions } = verdict;
    const reference = this.shrinkGuard()?.size;
    // A shrink let through (it persisted) starts a new reference; otherwise the largest stands.
    this.shrinkReference =
      reference === undefined || set.size < reference * (1 - this.options.maxShrinkRatio)
        ? set.size
        : Math.max(reference, set.size);
    this.shrinkRefusals = 0;
    this.shrinkSince = undefined;
    this.served = {
      set,
      fresh: Object.freeze({ state: 'fresh', set }),
      stale: Object.freeze({ state: 'stale', set }),
    };
    this.version = version;
    this.succeed(this.served, { size: set.size, durationMs });
    for (const { members, normalised } of collisions) {
      this.options.emit({ type: 'normalisation_collision', set: this.name, members, normalised });
    }
  }

  /**
   * The source said the list is still the version held: it is renewed as if
   * fetched now (fresh, age 0), with nothing read or compiled. Only an answer
   * to a version counts; one the provider never asked for fails the attempt.
   */
  private renew(durationMs: number): void {
    if (this.served === undefined || this.version === undefined) {
      const detail = 'the source answered { unchanged: true } to a load that passed no ctx.version';
      this.reject('malformed', detail);
      return this.fail('invalid_payload', detail, durationMs);
    }
    // An expired set comes back too: the owner has just vouched for it (and for its size).
    this.shrinkRefusals = 0;
    this.shrinkSince = undefined;
    this.succeed(this.served, { size: this.served.set.size, durationMs, unchanged: true });
  }

  private succeed(
    served: NonNullable<ValueSetSlot['served']>,
    event: { size: number; durationMs: number; unchanged?: true },
  ): void {
    this.lookup = served.fresh;
    this.fetchedAt = this.options.clock.now();
    this.failures = 0;
    this.lastError = undefined;
    this.retryTimer.stop();
    this.scheduleRefresh();
    this.options.emit({
      type: 'fetch_succeeded',
      set: this.name,
      source: this.source.kind,
      ...event,
    });
  }

  /**
   * The next refresh starts at `ttlMs × (1 − refreshJitter × random())` and
   * the set turns stale at `ttlMs` if that refresh has not succeeded by then.
   * A fresh draw for every attempt (`draw`): processes started together drift
   * apart instead of asking the owner in step every TTL. With a draw of 0
   * (or `refreshJitter` 0) both happen at `ttlMs`, stale first. `elapsed`:
   * how long ago the set was fetched (a set taken over, `adopt`).
   */
  private scheduleRefresh(elapsed = 0): void {
    const { ttlMs, refreshJitter } = this.options;
    const staleIn = ttlMs - elapsed;
    const refreshIn = Math.max(0, Math.round(ttlMs * (1 - refreshJitter * this.draw)) - elapsed);
    if (refreshIn >= staleIn) {
      this.phaseTimer.start(staleIn, () => {
        this.becomeStale();
        void this.refresh();
      });
      return;
    }
    this.phaseTimer.start(refreshIn, () => {
      this.phaseTimer.start(staleIn - refreshIn, () => this.becomeStale());
      void this.refresh();
    });
  }

  /** At the TTL without a good refresh; the refresh, or its retries, are already under way. */
  private becomeStale(): void {
    if (this.served) this.lookup = this.served.stale;
    this.phaseTimer.start(this.options.maxStaleMs, () => this.expire());
  }

  private expire(): void {
    this.lookup = UNAVAILABLE.expired;
    this.options.emit({ type: 'expired', set: this.name, source: this.source.kind });
  }

  private reject(reason: RefreshRejection, detail: string): void {
    const base = { set: this.name, source: this.source.kind };
    this.options.emit({ type: 'refresh_rejected', ...base, reason, detail });
  }

  private fail(reason: FailureReason, detail: string, durationMs: number): void {
    const { ttlMs, emit } = this.options;
    this.failures += 1;
    this.lastError = detail;
    // An expired set stays `expired`: that says more than the latest failure does.
    if (this.lookup.state === 'unavailable' && this.lookup !== UNAVAILABLE.expired) {
      this.lookup = UNAVAILABLE[reason];
    }
    const retryInMs = retryDelayMs(this.failures, ttlMs, this.draw);
    this.retryTimer.start(retryInMs, () => void this.refresh());
    const base = { set: this.name, source: this.source.kind };
    emit({ type: 'fetch_failed', ...base, reason, detail, durationMs, retryInMs });
  }

  /** The set `get()` hands out, if any; an expired one no longer counts. */
  private servedSet(): ValueSet | undefined {
    return this.lookup.state === 'unavailable' ? undefined : this.served?.set;
  }
}

function abortError(message: string): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}
