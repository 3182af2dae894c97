// The fault matrix of docs/reliability.md, as data: every way the check has
// been made to fail, what it does then, and what proves it. Each row's figure
// (the "measured" column) is recorded by a test it cites, with
// `recordFigure(id, text)` from @argcheck/testing/figures, when
// `npm run reliability` runs that test; a soak row's figure is what the soak
// says of the checks it cites. See
// docs/decisions/0031-fault-figures-recorded-by-tests.md.
import type { SoakCheckId } from '../../soak/result.js';

export const AREAS = [
  'Owner faults',
  'Owner credentials',
  'Concurrency',
  'Outages and recovery',
  'TTL changes',
  'Telemetry faults',
  'Adversarial arguments',
  'Repair messages',
  'Cardinality floods',
  'MCP calls',
  'argcheck CLI',
  'Collector allow-list',
  'Pipeline and fleet',
] as const;

export type Area = (typeof AREAS)[number];

/**
 * A test of one of the repository's mocha suites: its source file from the
 * repository root, and its `it` title exactly as mocha reports it (a templated
 * title with its values), or its full title (describe blocks included) where
 * the file has several tests of that `it` title.
 */
export interface TestCitation {
  test: string;
  title: string;
}

/** A check `npm run soak` judges (soak/result.ts). */
export interface SoakCitation {
  soakCheck: SoakCheckId;
}

/** A benchmark's section of docs/benchmarks.md, by its name in bench/benchmarks.ts. */
export interface BenchmarkCitation {
  benchmark: string;
}

export type Citation = TestCitation | SoakCitation | BenchmarkCitation;

export interface FaultRow {
  /** Stable: the tests that record the row's figure name it. */
  id: string;
  area: Area;
  /** What goes wrong. */
  fault: string;
  /** What happens now. */
  expected: string;
  /** The tests (or soak checks) that prove it, and a benchmark where speed or memory is the point. */
  provedBy: readonly [Citation, ...Citation[]];
}

const test = (file: string, title: string): TestCitation => ({ test: file, title });
const soak = (soakCheck: SoakCheckId): SoakCitation => ({ soakCheck });
const benchmark = (name: string): BenchmarkCitation => ({ benchmark: name });

/** Every row, in the order of the page (grouped by area, in the order of AREAS). */
export const ROWS: readonly FaultRow[] = [
  {
    id: 'owner-503',
    area: 'Owner faults',
    fault: 'The owner answers HTTP 503 when the set is due for refresh',
    expected:
      'The previous set keeps checking, served `stale`; the call goes out untouched; retries back off (750 ms, 1.5 s, 3 s, … 45 s).',
    provedBy: [
      test(
        'packages/core/test/sources/http-through-provider.test.ts',
        'fails a non-2xx answer as fetch_failed and keeps the previous set',
      ),
      test(
        'packages/core/test/checker/owner-faults.test.ts',
        'owner rejects on refresh: the previous set keeps checking',
      ),
      test(
        'packages/core/test/provider/backoff.test.ts',
        'doubles from 1 s, caps at 60 s, and keeps half the delay fixed',
      ),
    ],
  },
  {
    id: 'owner-hangs',
    area: 'Owner faults',
    fault: 'The owner accepts the connection and never answers',
    expected:
      'Checks never wait for it: the set being served keeps answering at the usual cost; the load is aborted at `fetchTimeoutMs` (2 s) and counted as `timeout`.',
    provedBy: [
      test(
        'packages/core/test/provider/failures.test.ts',
        'provider: when the owner fails and hangs past fetchTimeoutMs keeps serving the previous good set, stale',
      ),
      test(
        'packages/core/test/provider/get.test.ts',
        'returns at once, from a preallocated object, while a fetch hangs',
      ),
      test(
        'packages/core/test/provider/failures.test.ts',
        'aborts the signal of a load that timed out, and ignores its late answer',
      ),
      test(
        'packages/core/test/checker/owner-faults.test.ts',
        'owner hangs past fetchTimeoutMs on refresh: the previous set keeps checking',
      ),
    ],
  },
  {
    id: 'owner-not-json',
    area: 'Owner faults',
    fault: 'The owner answers 200 with a body that is not JSON',
    expected:
      'The refresh is refused as `malformed` (`invalid_payload`); the previous set is kept.',
    provedBy: [
      test(
        'packages/core/test/sources/http-through-provider.test.ts',
        'provider over httpValueSet (real HTTP server) when the owner returns a body that is not JSON keeps serving the previous good set, stale',
      ),
    ],
  },
  {
    id: 'owner-wrong-shape',
    area: 'Owner faults',
    fault: 'The owner answers JSON of the wrong shape (`{ "codes": [...] }`)',
    expected:
      'Refused as `malformed`; the previous set is kept; the detail names the keys it found, never the values.',
    provedBy: [
      test(
        'packages/core/test/provider/failures.test.ts',
        'provider: when the owner fails and returns the wrong shape keeps serving the previous good set, stale',
      ),
      test(
        'packages/core/test/sources/parse-payload.test.ts',
        'never quotes payload values in its detail',
      ),
    ],
  },
  {
    id: 'owner-empty-list',
    area: 'Owner faults',
    fault: 'The owner answers an empty list (mid-deploy)',
    expected: 'Refused as `empty`; the previous set is kept.',
    provedBy: [
      test(
        'packages/core/test/provider/failures.test.ts',
        'provider: when the owner fails and returns an empty list keeps serving the previous good set, stale',
      ),
    ],
  },
  {
    id: 'owner-shrunk',
    area: 'Owner faults',
    fault: 'The owner answers a list that lost more than half its members (truncated response)',
    expected: 'Refused as `shrunk` (`maxShrinkRatio` 0.5); the previous set is kept.',
    provedBy: [
      test(
        'packages/core/test/provider/failures.test.ts',
        'rejects it and keeps serving the previous set',
      ),
      test(
        'packages/core/test/checker/owner-faults.test.ts',
        'a refresh that lost more than half the members is refused; the old set keeps checking',
      ),
    ],
  },
  {
    id: 'owner-endless-body',
    area: 'Owner faults',
    fault: 'The owner streams an endless body',
    expected:
      'Reading stops as soon as `maxBytes` have arrived and the connection is dropped; refused as `too_large`; the previous set is kept.',
    provedBy: [
      test(
        'packages/core/test/sources/http-value-set.test.ts',
        'stops reading a streamed body at maxBytes and drops the connection',
      ),
      test(
        'packages/core/test/sources/http-through-provider.test.ts',
        'provider over httpValueSet (real HTTP server) when the owner returns a body over maxBytes keeps serving the previous good set, stale',
      ),
    ],
  },
  {
    id: 'owner-unreachable',
    area: 'Owner faults',
    fault: 'The owner is unreachable from the start (connection refused)',
    expected:
      'Checks report `unavailable` (`fetch_failed`) and every call goes out untouched, in every mode; `tool_argument_check_unavailable{reason}` counts them.',
    provedBy: [
      test(
        'packages/instrumentation/test/telemetry/owner-unreachable.test.ts',
        'lets every call through untouched, in every mode, and counts each check unavailable',
      ),
      test(
        'packages/core/test/checker/membership.test.ts',
        'reports an unavailable set and lets the call through untouched',
      ),
      test(
        'packages/core/test/checker/owner-faults.test.ts',
        'owner rejects, no set yet: unavailable (fetch_failed), the call goes through',
      ),
      test(
        'packages/instrumentation/test/telemetry/check-counters.test.ts',
        'count checks that could not run, by reason, and let the call through',
      ),
    ],
  },
  {
    id: 'owner-shrinks-stepwise',
    area: 'Owner faults',
    fault:
      'An owner whose list shrinks a little at every refresh (1,000 → 600 → 360 → … → 7), or whose `select` throws an error quoting the body',
    expected:
      'The shrink guard compares with the largest set served since the last shrink it let through: every step past half of 1,000 is refused; a shrink refused three times in a row, over at least a TTL, is accepted. A `select` error is named by its type, its message never kept.',
    provedBy: [
      test(
        'packages/core/test/regression/shrink-guard-walked-down.test.ts',
        '1,000 members cannot become 7 through refreshes that each lose under half',
      ),
      test(
        'packages/core/test/regression/shrink-guard-walked-down.test.ts',
        'a shrink that persists over a TTL is accepted; a brief one is not',
      ),
      test(
        'packages/core/test/sources/http-value-set.test.ts',
        'refuses the payload as malformed when select throws, naming the error, never quoting its message',
      ),
    ],
  },
  {
    id: 'owner-redirects',
    area: 'Owner credentials',
    fault:
      'The owner redirects: the headers configured for it (an API key) followed the redirect to another origin, and from https to plain http',
    expected:
      'The headers go to the configured origin only; a redirect elsewhere is followed without them. A redirect from https to plain http is refused (`fetch_failed`) and nothing is sent there.',
    provedBy: [
      test(
        'packages/core/test/regression/custom-headers-follow-redirects.test.ts',
        'does not send the configured headers to another origin a redirect points at',
      ),
      test(
        'packages/core/test/regression/custom-headers-follow-redirects.test.ts',
        'refuses a redirect to plain http: nothing is sent there, and the fetch fails',
      ),
    ],
  },
  {
    id: 'error-texts-credentials',
    area: 'Owner credentials',
    fault:
      'Error texts carried credentials: the URL’s user, password and query token, a header’s value, or a piece of the body, in `status().lastError`, `fetch_failed` details and thrown errors',
    expected:
      'Error texts name the origin and path only, and describe a bad body without quoting it; a URL with credentials or a header value fetch would refuse is refused when the source is made (`ArgcheckConfigError`).',
    provedBy: [
      test(
        'packages/core/test/regression/errors-carry-credentials.test.ts',
        'names no secret in any text after every kind of failure, one after another',
      ),
      test(
        'packages/core/test/regression/errors-carry-credentials.test.ts',
        'names no secret after a non-2xx answer with a body and a reason phrase',
      ),
      test(
        'packages/core/test/regression/errors-carry-credentials.test.ts',
        'names no secret after a body that is not JSON, the secret next to the mistake',
      ),
      test(
        'packages/core/test/regression/errors-carry-credentials.test.ts',
        'names no secret after credentials in the URL',
      ),
      test(
        'packages/core/test/regression/errors-carry-credentials.test.ts',
        'names no secret after a timeout',
      ),
    ],
  },
  {
    id: 'cold-set-checks',
    area: 'Concurrency',
    fault: '1,000 checks arrive together on a cold set',
    expected:
      'Exactly one fetch; every check answers at once (`unavailable: cold`) and the call goes out.',
    provedBy: [
      test(
        'packages/core/test/provider/get.test.ts',
        'starts exactly one fetch for 1,000 concurrent get() calls on a cold set',
      ),
      test(
        'packages/core/test/checker/owner-faults.test.ts',
        '1,000 checks on a cold set start exactly one fetch',
      ),
    ],
  },
  {
    id: 'single-flight',
    area: 'Concurrency',
    fault: '`refresh()` and `get()` hammered while a load is in flight',
    expected: 'Single flight: one load per set at a time; every caller joins it.',
    provedBy: [
      test(
        'packages/core/test/provider/refresh.test.ts',
        'keeps one load in flight however often refresh() and get() are called',
      ),
    ],
  },
  {
    id: 'outage-40-minutes',
    area: 'Outages and recovery',
    fault: 'A 40-minute owner outage (TTL 5 min, `maxStaleMs` 30 min)',
    expected:
      'Served `stale` from the TTL until 30 min past it, then `unavailable` (`expired`) — checks go on, calls untouched; retries back off to one per 45 s; the first retry after the owner is back makes the set fresh.',
    provedBy: [
      test(
        'packages/core/test/provider/outage.test.ts',
        'serves stale until maxStale, then expired, retrying with backoff, then fresh',
      ),
    ],
  },
  {
    id: 'back-after-expiry-smaller',
    area: 'Outages and recovery',
    fault: 'The owner comes back after the set expired, with far fewer members',
    expected:
      'The shrink guard protects a set being served, not an expired one: the new list is accepted.',
    provedBy: [
      test(
        'packages/core/test/provider/refresh.test.ts',
        'once a set has expired, accepts a list much smaller than the one that expired',
      ),
    ],
  },
  {
    id: 'soak-owners-fail',
    area: 'Outages and recovery',
    fault:
      'Soak: minutes of sustained MCP calls while every owner fails for a stretch, then one owner again',
    expected:
      'No call fails or waits on the owner; sets go stale, then `expired` (checks counted `unavailable`), and fresh again at the first retry after the owner is back.',
    provedBy: [soak('no_call_failed'), soak('every_call_reached_the_server')],
  },
  {
    id: 'soak-heap',
    area: 'Outages and recovery',
    fault: 'Soak: heap over minutes of calls, faults and recoveries',
    expected: 'Flat after warm-up: nothing accumulates per call, per fetch or per failed export.',
    provedBy: [soak('heap_flat'), soak('no_unhandled_rejection')],
  },
  {
    id: 'first-calls',
    area: 'Outages and recovery',
    fault: 'The first calls of a process, before anything asked for the set (reject mode)',
    expected:
      'Every configured set starts loading when the instrumentation is enabled: the first call after the load is checked (an invented value rejected), with no `ready()` or check before it.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/first-calls-of-a-process-unchecked.test.ts',
        'reject: a static set is served to the very first call, with no check or ready() before it',
      ),
      test(
        'packages/instrumentation/test/regression/first-calls-of-a-process-unchecked.test.ts',
        'reject: an owner on loopback is asked as the instrumentation is enabled, and its set checks the first call',
      ),
    ],
  },
  {
    id: 'owner-adds-member',
    area: 'TTL changes',
    fault: 'The owner adds a member (the seventh refund code)',
    expected:
      'Calls with the new member count as mismatches until the TTL passes, then the background refresh brings it in; no restart.',
    provedBy: [
      test(
        'packages/core/test/provider/refresh.test.ts',
        'picks up a seventh code once the TTL has passed and the background refresh completes',
      ),
      test(
        'packages/core/test/checker/owner-faults.test.ts',
        'a seventh code added by the owner is in set once the TTL refresh completes',
      ),
    ],
  },
  {
    id: 'no-refresh-for-hours',
    area: 'TTL changes',
    fault: 'No good refresh for hours (defaults)',
    expected:
      'Fresh for 300 s, `stale` for 3,600 s more, then `unavailable` (`expired`): a set that never refreshes becomes visible.',
    provedBy: [
      test(
        'packages/core/test/provider/defaults.test.ts',
        'keeps a set fresh for 300 s, then stale for 3,600 s, then expired',
      ),
    ],
  },
  {
    id: 'ttl-set-config',
    area: 'TTL changes',
    fault: 'The TTL is changed at run time (`inst.setConfig({ ..., ttlMs })`)',
    expected:
      'A new provider is built with the new TTL and fetches at the new pace; the old one is closed; the counters keep their running totals.',
    provedBy: [
      test(
        'packages/instrumentation/test/catalog/derived-sets.test.ts',
        'follows setConfig: a client listed before is checked under the new configuration',
      ),
      test(
        'test/scale/ttl-change.test.ts',
        'setConfig with a new ttlMs fetches at the new pace, stops the old provider, and keeps the totals',
      ),
    ],
  },
  {
    id: 'set-config-same-sets',
    area: 'TTL changes',
    fault:
      '`setConfig` with the same sets (a new `ttlMs`, or observe → reject during an owner outage)',
    expected:
      'A set whose source did not change keeps its members, age and state: no `cold` gap, a set served stale stays served stale; its next refresh is due as the new TTL says.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/set-config-discards-served-sets.test.ts',
        'reject: the same sets under a new ttlMs reject an invented value at once',
      ),
      test(
        'packages/instrumentation/test/regression/set-config-discards-served-sets.test.ts',
        'observe -> reject during an owner outage: the set is served stale and the invented value rejected',
      ),
      test(
        'packages/core/test/provider/replaces.test.ts',
        'a set from the same source keeps its members, age and state under a new TTL',
      ),
    ],
  },
  {
    id: 'telemetry-providers-throw',
    area: 'Telemetry faults',
    fault: 'The meter and logger providers throw (on every call, or when asked for a meter/logger)',
    expected:
      'Calls are exactly what they would be with working telemetry, in every mode; nothing is thrown or rejected.',
    provedBy: [
      test(
        'packages/instrumentation/test/telemetry/faults.test.ts',
        'never changes a call (observe): throwing meters and loggers',
      ),
      test(
        'packages/instrumentation/test/telemetry/faults.test.ts',
        'never changes a call (normalise): throwing meters and loggers',
      ),
      test(
        'packages/instrumentation/test/telemetry/faults.test.ts',
        'never changes a call (reject): throwing meters and loggers',
      ),
    ],
  },
  {
    id: 'otlp-endpoint-gone',
    area: 'Telemetry faults',
    fault: 'The OTLP endpoint is gone (exporters pointed at a closed port)',
    expected:
      'Exports fail in the background; calls are unchanged, checks cost what they did, and no promise rejects unhandled.',
    provedBy: [
      test(
        'packages/instrumentation/test/telemetry/faults.test.ts',
        'never changes a call, nor rejects unhandled, with OTLP exporters pointed at a closed port',
      ),
    ],
  },
  {
    id: 'redact-value-throws',
    area: 'Telemetry faults',
    fault: '`redactValue` throws',
    expected:
      'Fail closed: the value is left out of the record; the record and the call are otherwise unchanged; one warning.',
    provedBy: [
      test(
        'packages/instrumentation/test/logs/check-records.test.ts',
        'pass values through redactValue before truncation; undefined or a throw leaves the value out',
      ),
    ],
  },
  {
    id: 'soak-otlp-endpoint',
    area: 'Telemetry faults',
    fault: "Soak: the collector's OTLP endpoint goes away twice and comes back",
    expected:
      'Exports fail while it is away and calls do not notice; the counters are cumulative, so the first export after it is back restores every total; sampled log records sent while it was away are lost (best effort).',
    provedBy: [soak('same_totals_downstream'), soak('counters_add_up')],
  },
  {
    id: 'capture-kill-switch',
    area: 'Telemetry faults',
    fault: '`ARGCHECK_CAPTURE_VALUES` set to `0`, `off`, `no` or a misspelling',
    expected:
      'Value capture is off for any setting but `true`, `1`, `yes`, `on` or empty: the kill switch fails closed.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/capture-kill-switch-only-understands-false.test.ts',
        'an instrumentation made under any of them writes its records without the emitted value',
      ),
      test(
        'packages/instrumentation/test/regression/capture-kill-switch-only-understands-false.test.ts',
        '"off" turns value capture off',
      ),
    ],
  },
  {
    id: 'hostile-arguments',
    area: 'Adversarial arguments',
    fault:
      'Arguments built to break the checker: throwing getters, hostile and revoked Proxies, cycles, Symbols, BigInts, functions, broken JSON text',
    expected:
      'No exception ever reaches the caller; the call goes out untouched. JSON text that is not JSON is one `unreadable` finding per configured argument; arguments nothing can be read from (throwing getters, Proxies, `null`) give no findings.',
    provedBy: [
      test(
        'packages/core/test/checker/hostile-arguments.test.ts',
        'throws nothing and hands back the caller’s arguments for every hostile kind, in every mode',
      ),
      test(
        'packages/core/test/checker/membership.test.ts',
        'survives arguments whose getters throw',
      ),
      test(
        'packages/core/test/checker/hostile-arguments.test.ts',
        'finds nothing in arguments it cannot read, and lets the call through (reject)',
      ),
      test(
        'packages/core/test/checker/hostile-arguments.test.ts',
        'reports a Symbol, a BigInt or a function as not_string, never throwing (reject)',
      ),
      test(
        'packages/core/test/checker/hostile-arguments.test.ts',
        'checks a cyclic argument object like any other',
      ),
      test(
        'packages/core/test/checker/hostile-arguments.test.ts',
        'reports JSON text that is not JSON as unreadable, and lets the call through (reject)',
      ),
    ],
  },
  {
    id: 'random-argument-trees',
    area: 'Adversarial arguments',
    fault:
      'Random argument trees (seeded): prototype keys, empty strings, lone surrogates, long strings, nesting',
    expected: 'Never throws, never mutates its input; every mismatch has exactly one shape.',
    provedBy: [
      test(
        'packages/core/test/checker/properties.test.ts',
        'never throws, never mutates, and every mismatch has exactly one shape',
      ),
      test(
        'packages/core/test/match/robustness.test.ts',
        'handles lone surrogates in values and members without throwing',
      ),
    ],
  },
  {
    id: 'prototype-keys',
    area: 'Adversarial arguments',
    fault: 'Prototype keys as values (`__proto__`, `constructor`, `toString`, `hasOwnProperty`)',
    expected:
      'Never members unless the owner lists them; they are classified like any other string.',
    provedBy: [
      test(
        'packages/core/test/match/robustness.test.ts',
        'never treats prototype keys as members unless listed',
      ),
      test(
        'packages/core/test/checker/membership.test.ts',
        'treats prototype keys as values like any other string',
      ),
    ],
  },
  {
    id: 'ten-mb-value',
    area: 'Adversarial arguments',
    fault: 'A 10 MB string as the value, in reject mode',
    expected:
      'Classified `invented` without being examined; the repair message quotes a short prefix and stays bounded.',
    provedBy: [
      test(
        'packages/core/test/match/robustness.test.ts',
        'classifies a 10 MB string as invented, with no suggestions',
      ),
      test(
        'packages/core/test/checker/modes.test.ts',
        'bounds the message and quotes only a prefix of a huge value',
      ),
    ],
  },
  {
    id: 'array-path-100k',
    area: 'Adversarial arguments',
    fault: 'An array path with 100,000 elements (`items[].warehouse_code`)',
    expected: 'Every element is checked; cost grows with the elements, not with anything else.',
    provedBy: [
      test(
        'packages/core/test/checker/membership.test.ts',
        'checks every element of an array path and nested properties',
      ),
      test(
        'packages/core/test/checker/hostile-arguments.test.ts',
        'checks every element of a 100,000-element array path',
      ),
    ],
  },
  {
    id: 'json-text-reserialised',
    area: 'Adversarial arguments',
    fault:
      'Normalise mode rewrote a JSON-text call by re-serialising all of it (9007199254740993 became …992, 10.10 became 10.1, 1e400 became null)',
    expected:
      'Only the rewritten string tokens change; every other byte of the text is the caller’s, as written. A call with nothing to rewrite goes out as the very string it came as.',
    provedBy: [
      test(
        'packages/core/test/regression/normalise-reserialises-json-arguments.test.ts',
        'changes no byte outside the rewritten string tokens, for any JSON text',
      ),
      test(
        'packages/core/test/regression/normalise-reserialises-json-arguments.test.ts',
        'keeps a big integer, 10.10 and 1e400 byte for byte when it rewrites reason_code',
      ),
    ],
  },
  {
    id: 'json-duplicate-keys',
    area: 'Adversarial arguments',
    fault:
      'A key given twice in JSON text (`{"reason_code":"CUSTOMER_UNHAPPY","reason_code":"LATE"}`) was checked once, by its last occurrence',
    expected:
      'Every occurrence is a finding of its own; reject mode rejects when any occurrence is rejected, whichever comes first.',
    provedBy: [
      test(
        'packages/core/test/regression/duplicate-json-keys-check-last-only.test.ts',
        'rejects when the first occurrence is invented and the last is a member',
      ),
      test(
        'packages/core/test/regression/duplicate-json-keys-check-last-only.test.ts',
        'counts each occurrence in observe mode and calls untouched',
      ),
    ],
  },
  {
    id: 'json-unreadable',
    area: 'Adversarial arguments',
    fault:
      'JSON text that does not parse (a trailing comma) or is not an object: the checked tool’s arguments were invisible, counted nowhere',
    expected:
      'One `unavailable` finding, reason `unreadable`, per configured argument of the tool, counted in `tool_argument_check_unavailable{reason="unreadable"}`; the call goes out untouched in every mode.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/unreadable-arguments-not-counted.test.ts',
        'reject: counts each configured argument as unavailable, reason unreadable',
      ),
      test(
        'packages/core/test/regression/unreadable-json-arguments-invisible.test.ts',
        'reject: "{\\"reason_code\\":\\"LATE\\",}" is one unreadable finding per configured argument',
      ),
      test(
        'packages/instrumentation/test/regression/unreadable-arguments-not-counted.test.ts',
        'observe: counts each configured argument as unavailable, reason unreadable',
      ),
      test(
        'packages/instrumentation/test/regression/unreadable-arguments-not-counted.test.ts',
        'normalise: counts each configured argument as unavailable, reason unreadable',
      ),
    ],
  },
  {
    id: 'normalise-copy',
    area: 'Adversarial arguments',
    fault:
      '`normalise` mode over a class instance, a null-prototype object, getters, non-enumerable properties, an array subclass with extra properties, a frozen object',
    expected:
      'The copy keeps the prototype, every property descriptor, the array’s extra properties and the frozen or sealed state; only the rewritten value differs (decision 0026).',
    provedBy: [
      test(
        'packages/core/test/regression/normalise-copy-changes-more-than-the-value.test.ts',
        'every kind of object keeps its prototype, its other properties as defined, and its integrity',
      ),
      test(
        'packages/core/test/regression/normalise-copy-changes-more-than-the-value.test.ts',
        'a class instance stays an instance of its class, its methods see the member',
      ),
      test(
        'packages/core/test/regression/normalise-copy-changes-more-than-the-value.test.ts',
        'non-enumerable and symbol properties, getters and setters are carried as they were',
      ),
    ],
  },
  {
    id: 'closer-stack',
    area: 'Adversarial arguments',
    fault: 'An argument text with a 1,000,000-deep member the check does not read',
    expected:
      'The JSON reader gives its grown stack of closers back once the text is read: the process keeps at most 1,024, not the deepest nesting it ever saw.',
    provedBy: [
      test(
        'packages/core/test/regression/closer-stack-keeps-deepest-nesting.test.ts',
        'holds at most 1,024 closers after reading a 1,000,000-deep unchecked member',
      ),
    ],
  },
  {
    id: 'hostile-catalog-names',
    area: 'Adversarial arguments',
    fault:
      'An MCP server whose tool, argument and server names carry ESC, BEL, CR, bidi overrides or a lone surrogate',
    expected:
      'Every name from a catalog is safe text in metric and log attributes: unsafe characters shown as `?`, at most 128 characters, a 12-hex-digit SHA-256 mark for any name changed, so two different names never share a series.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/hostile-catalog-names-reach-attributes-raw.test.ts',
        'every metric and log attribute value is printable, well-formed text, whatever the catalog names',
      ),
      test(
        'packages/instrumentation/test/telemetry/safe-name.test.ts',
        'never maps two different names to one value, nor a raw name onto another’s mark',
      ),
    ],
  },
  {
    id: 'suggestions-per-element',
    area: 'Repair messages',
    fault:
      'Reject mode computed suggestions for every rejected element of an array, though the message shows a few (issue 11: 2,000 near misses against 100,000 members held the event loop for seconds)',
    expected:
      'Suggestions are computed only for the rejected arguments the repair message describes: the same work for 20,000 elements as for 20. Each element is still classified and counted.',
    provedBy: [
      test(
        'packages/core/test/regression/reject-suggests-for-every-array-element.test.ts',
        'does the same suggestion work for 20,000 elements as for 20',
      ),
      test(
        'packages/core/test/regression/reject-suggests-for-every-array-element.test.ts',
        'computes suggestions only for the arguments the repair message describes',
      ),
      benchmark('hostile-sizes'),
    ],
  },
  {
    id: 'repair-encodes-members',
    area: 'Repair messages',
    fault:
      'The repair message JSON-encoded every member of a small set before clipping to its bound (issue 11: 20 owner-served members of 800 KB)',
    expected:
      'The message is built only as far as it is shown: members are read until it is full, then it stops.',
    provedBy: [
      test(
        'packages/core/test/regression/repair-message-encodes-every-member.test.ts',
        'reads only the members it can show of a set of long members',
      ),
      benchmark('hostile-sizes'),
    ],
  },
  {
    id: 'long-value-near-miss',
    area: 'Repair messages',
    fault:
      'A very long value was searched for near misses like a short one (issue 11: 4 MB MCP enum values)',
    expected:
      'Values longer than 1,024 normalised characters are not searched for near misses (classified `invented` unless a case or format variant); shorter ones are.',
    provedBy: [
      test(
        'packages/core/test/regression/repair-message-encodes-every-member.test.ts',
        'searches values up to the bound, and not past it',
      ),
      test(
        'packages/core/test/regression/repair-message-encodes-every-member.test.ts',
        'still finds the member a long value stands for by case or format',
      ),
      benchmark('hostile-sizes'),
    ],
  },
  {
    id: 'repair-well-formed',
    area: 'Repair messages',
    fault:
      'Repair messages that were not well-formed text: a surrogate pair cut in half by the clip; line separators, bidi overrides and controls from members and tool names passed raw',
    expected:
      'Controls, separators and bidi characters are escaped; the clip falls on code-point boundaries; the message stays within `maxRepairMessageLength`.',
    provedBy: [
      test(
        'packages/core/test/regression/repair-message-not-well-formed.test.ts',
        'is well-formed, escapes controls, and keeps within its bound, for any text',
      ),
      test(
        'packages/core/test/regression/repair-message-not-well-formed.test.ts',
        'does not cut a surrogate pair in half when it clips',
      ),
    ],
  },
  {
    id: 'private-set-disclosure',
    area: 'Repair messages',
    fault:
      'Rejected guesses against a private set (10,000 active user handles), to draw its members out of repair messages',
    expected:
      "With `repairDisclosure: { set: 'none' }` a repair message names the argument, the set and its size, no member; the default (`'list'`) still lists a six-code set whole.",
    provedBy: [
      test(
        'packages/instrumentation/test/regression/reject-mode-discloses-private-sets.test.ts',
        "repairDisclosure 'none': 300 rejected guesses reveal no handle",
      ),
      test(
        'packages/core/test/checker/repair-disclosure.test.ts',
        'by default lists all six members of a six-code set',
      ),
      test(
        'packages/instrumentation/test/regression/reject-mode-discloses-private-sets.test.ts',
        'by default the closest members are still offered (the trade-off is the configuration’s)',
      ),
    ],
  },
  {
    id: 'cardinality-flood',
    area: 'Cardinality floods',
    fault:
      'A cardinality flood: 100,000 distinct invented values, and model-invented tool and argument names',
    expected:
      'No new series (attribute values come only from configuration); the values appear only in sampled log records (1 in 50).',
    provedBy: [
      test(
        'packages/instrumentation/test/cardinality-flood.test.ts',
        '100,000 distinct invented values add no series; values appear only in sampled log records',
      ),
      test(
        'packages/instrumentation/test/telemetry/check-counters.test.ts',
        'never give a tool or argument the configuration does not name a series',
      ),
      benchmark('flood-memory'),
    ],
  },
  {
    id: 'catalog-200-tools',
    area: 'Cardinality floods',
    fault: 'An MCP server whose catalog has 200 tools with string enums',
    expected:
      'At most `mcp.maxCheckedArguments` derived arguments are checked (and become series); the rest are skipped, said once.',
    provedBy: [
      test(
        'packages/instrumentation/test/mcp/catalog-budget.test.ts',
        'checks and counts only the first maxCheckedArguments derived arguments',
      ),
      test(
        'packages/instrumentation/test/catalog/derived-sets.test.ts',
        'checks at most maxCheckedArguments derived arguments, over all catalogs, and says so once each',
      ),
      test(
        'packages/instrumentation/test/catalog/derive-catalog.test.ts',
        'caps derived arguments, keeping the same ones whatever order the server lists tools in',
      ),
    ],
  },
  {
    id: 'renamed-tools',
    area: 'Cardinality floods',
    fault:
      'An MCP server renames its tools on every listing: a value set was built and fetched for every derived argument, those over the budget included, and each became a `set` on the fetch metrics',
    expected:
      'Only the arguments admitted within `mcp.maxCheckedArguments` get a value set, so no instrument has more `set` values than the budget, however many listings.',
    provedBy: [
      test(
        'packages/instrumentation/test/mcp/regression/renamed-tools-grow-series.test.ts',
        'cannot grow any instrument past mcp.maxCheckedArguments',
      ),
    ],
  },
  {
    id: 'mcp-reject',
    area: 'MCP calls',
    fault: 'Reject mode: the model emits values that are not members',
    expected:
      'The call resolves to a tool error carrying the repair message and never reaches the server; members and case variants (rewritten) do.',
    provedBy: [
      test(
        'packages/instrumentation/test/mcp/modes.test.ts',
        'MCP callTool in each mode — @modelcontextprotocol/sdk 1.x over InMemoryTransport mode reject sends what the mode says, and a rejected call never reaches the server',
      ),
      test(
        'packages/instrumentation/test/mcp/modes.test.ts',
        'MCP callTool in each mode — @modelcontextprotocol/client 2.x over InMemoryTransport mode reject sends what the mode says, and a rejected call never reaches the server',
      ),
      test(
        'packages/instrumentation/test/mcp/patch-client.test.ts',
        'resolves a rejection to a tool error without calling the server',
      ),
      test(
        'packages/instrumentation/test/mcp/modes.test.ts',
        'MCP callTool in each mode — @modelcontextprotocol/sdk 1.x over stdio (child process) mode reject sends what the mode says, and a rejected call never reaches the server',
      ),
      test(
        'packages/instrumentation/test/mcp/modes.test.ts',
        'MCP callTool in each mode — @modelcontextprotocol/client 2.x with server 2.x over stdio (child process) mode reject sends what the mode says, and a rejected call never reaches the server',
      ),
    ],
  },
  {
    id: 'mcp-call-tool-stream',
    area: 'MCP calls',
    fault:
      'Reject mode through `client.experimental.tasks.callToolStream()` (SDK 1.x), which bypasses `callTool`',
    expected:
      'Checked like `callTool`: a rejected call streams one `result` message carrying the repair message and never reaches the server; members and case variants (rewritten) do.',
    provedBy: [
      test(
        'packages/instrumentation/test/mcp/call-tool-stream.test.ts',
        'MCP callToolStream (SDK 1.x experimental tasks) — @modelcontextprotocol/sdk 1.x over InMemoryTransport mode reject checks each call once with the client’s derived sets; a rejection never reaches the server',
      ),
      test(
        'packages/instrumentation/test/mcp/call-tool-stream.test.ts',
        'MCP callToolStream (SDK 1.x experimental tasks) — @modelcontextprotocol/sdk 1.x over stdio (child process) mode reject checks each call once with the client’s derived sets; a rejection never reaches the server',
      ),
    ],
  },
  {
    id: 'mcp-patched-twice',
    area: 'MCP calls',
    fault: 'A client patched twice (through its prototype and by `instrumentMcpClient`)',
    expected: 'Each call is checked and counted once.',
    provedBy: [
      test(
        'packages/instrumentation/test/mcp/auto-patch-cjs.test.ts',
        'auto-patching — @modelcontextprotocol/sdk 1.x, CommonJS build (dist/cjs/client/index.js) counts a call once on a client patched through its prototype and by instrumentMcpClient',
      ),
      test(
        'packages/instrumentation/test/mcp/auto-patch-cjs.test.ts',
        'auto-patching — @modelcontextprotocol/client 2.x, CommonJS build (dist/index.cjs) counts a call once on a client patched through its prototype and by instrumentMcpClient',
      ),
    ],
  },
  {
    id: 'hostile-schemas',
    area: 'MCP calls',
    fault:
      'An MCP catalog with a 1,000,000-member enum, a 20,000-deep `anyOf`, a shared schema graph 2^26 wide, or a schema whose getters throw',
    expected:
      'Bounded work per schema (10,000 nodes, unions 16 deep, enums of at most 10,000 members) and per listing (100,000 members derived in all, the rest dropped and counted); nothing throws, and the other tools’ enums are derived.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/hostile-schemas-stall-the-agent.test.ts',
        'a 20,000-deep anyOf neither throws nor stops the other tools’ enums',
      ),
      test(
        'packages/instrumentation/test/regression/hostile-schemas-stall-the-agent.test.ts',
        'a shared schema graph 2^26 wide is given up on within the node budget',
      ),
      test(
        'packages/instrumentation/test/regression/hostile-schemas-stall-the-agent.test.ts',
        'an enum of more than 10,000 members is not derived; the others are',
      ),
      test(
        'packages/instrumentation/test/regression/hostile-schemas-stall-the-agent.test.ts',
        'a schema whose getters throw derives nothing for its tool, and the others still derive',
      ),
    ],
  },
  {
    id: 'report-value-slices',
    area: 'argcheck CLI',
    fault:
      '`argcheck report` kept each distinct value as a slice of its input line, so every kept value held its whole line in memory',
    expected:
      'Kept values are copies cut to 256 characters: what the report holds does not grow with the length of the lines.',
    provedBy: [
      test(
        'packages/cli/test/regression/report-keys-retain-input.test.ts',
        'keeps 100 distinct 200 KB values as cut copies, not slices of the input',
      ),
      benchmark('report-memory'),
    ],
  },
  {
    id: 'report-long-tool-names',
    area: 'argcheck CLI',
    fault: '`argcheck report` kept long tool names whole',
    expected:
      'Tool, argument and set names are cut to 256 characters and copied: one series each, a few hundred bytes.',
    provedBy: [
      test(
        'packages/cli/test/regression/report-keys-retain-input.test.ts',
        'keeps 100 distinct 200 KB tool names as cut copies, not the whole names',
      ),
      benchmark('report-memory'),
    ],
  },
  {
    id: 'report-shape-names',
    area: 'argcheck CLI',
    fault: '`argcheck report` kept any number of shape names, of any length',
    expected:
      'At most 16 shape names per series, each cut to 64 characters and copied; the rest are counted as `other`.',
    provedBy: [
      test(
        'packages/cli/test/regression/report-keys-retain-input.test.ts',
        'keeps 100 distinct 200 KB shape names as cut copies, not the whole names',
      ),
    ],
  },
  {
    id: 'report-values-cap',
    area: 'argcheck CLI',
    fault:
      '`argcheck report` allowed 10,000 distinct values in each of 1,000 series: 10 million kept values',
    expected:
      'At most 100,000 distinct values are kept across all series; values past the cap are counted as `other`.',
    provedBy: [
      test(
        'packages/cli/test/regression/report-values-in-all-series.test.ts',
        'keeps at most 100,000 distinct values across all series and counts the rest as other',
      ),
      benchmark('report-memory'),
    ],
  },
  {
    id: 'report-deep-nesting',
    area: 'argcheck CLI',
    fault:
      '`argcheck report` parsed a line of any nesting depth (issue 11: one 60 MB line of brackets took 3.1 GB)',
    expected:
      'A line nested deeper than 64 levels is refused before it is parsed, named by its line number; the lines around it are counted.',
    provedBy: [
      test(
        'packages/cli/test/regression/report-deep-nesting.test.ts',
        'refuses lines nested deeper than 64 levels by line number and counts the other lines',
      ),
      benchmark('report-memory'),
    ],
  },
  {
    id: 'bin-before-build',
    area: 'argcheck CLI',
    fault:
      '`npx argcheck` failed on a fresh clone: the bin pointed into build/, which `npm ci` links before anything is built',
    expected:
      'The bin is a committed source file outside build/, so `npm ci` links it; it runs the built command, and before a build it says to build first (exit 1).',
    provedBy: [
      test(
        'packages/cli/test/regression/bin-before-build.test.ts',
        'is a file of the package sources, outside build/, and published',
      ),
      test(
        'packages/cli/test/regression/bin-before-build.test.ts',
        'says to build first when the build is missing, exit 1',
      ),
    ],
  },
  {
    id: 'demo-seed',
    area: 'argcheck CLI',
    fault: 'Two `argcheck demo` runs with the same `--seed` sampled different log records',
    expected:
      'The same seed writes the same log records and counts the same checks, whatever the timing of the machine.',
    provedBy: [
      test(
        'packages/cli/test/regression/demo-seed-sampling.test.ts',
        'observe mode: the same seed writes the same records and counts the same checks',
      ),
      test(
        'packages/cli/test/regression/demo-seed-sampling.test.ts',
        'reject mode: the same seed writes the same records and counts the same checks',
      ),
      test(
        'packages/core/test/regression/draws-in-load-completion-order.test.ts',
        'gives each set the same next refresh whichever of their loads ends first',
      ),
    ],
  },
  {
    id: 'report-empty-records-line',
    area: 'argcheck CLI',
    fault:
      '`argcheck report` given a 63 MB line of 21 million empty records (`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{},{},…]}]}]}`)',
    expected:
      'The line is refused before it is parsed (more than one object or array per 12 characters), in the pass that checks its nesting; the records around it are counted.',
    provedBy: [
      test(
        'packages/cli/test/regression/report-memory-beyond-line-cap.test.ts',
        'refuses a line of 5 million empty records before parsing it',
      ),
      benchmark('report-memory'),
    ],
  },
  {
    id: 'report-control-characters',
    area: 'argcheck CLI',
    fault:
      '`argcheck report` over records whose tool, set, shape and value carry ESC, OSC, BEL, CR, U+009B or U+202E, and corrupt lines that quote them',
    expected:
      'Everything printed that came from a record or a line is escaped as `\\uXXXX`, in text, markdown and JSON, on stdout and stderr; a name with backticks stays inside its markdown code span.',
    provedBy: [
      test(
        'packages/cli/test/regression/report-prints-control-characters.test.ts',
        'text: nothing from a hostile record or line reaches the output raw',
      ),
      test(
        'packages/cli/test/regression/report-prints-control-characters.test.ts',
        'markdown: nothing from a hostile record or line reaches the output raw',
      ),
      test(
        'packages/cli/test/regression/report-prints-control-characters.test.ts',
        'json: nothing from a hostile record or line reaches the output raw',
      ),
    ],
  },
  {
    id: 'demo-otlp-credentials',
    area: 'argcheck CLI',
    fault:
      '`argcheck demo --otlp` given an endpoint with credentials (`http://user:secret@…/base?token=…`, or `OTEL_EXPORTER_OTLP_ENDPOINT`)',
    expected:
      'The demo shows the endpoint as its origin and path only, in its last line and in `--json`: no user name, password, query string or fragment.',
    provedBy: [
      test(
        'packages/cli/test/regression/demo-prints-otlp-credentials.test.ts',
        'prints no credential of an endpoint given by the flag, in text or --json',
      ),
      test(
        'packages/cli/test/regression/demo-prints-otlp-credentials.test.ts',
        'prints no credential of an endpoint given by the environment, in text or --json',
      ),
    ],
  },
  {
    id: 'collector-summary',
    area: 'Collector allow-list',
    fault:
      'A Summary named `tool_argument_value_check`, with the model’s value as an attribute, kept every label on its way to Prometheus',
    expected:
      'Dropped by `filter/argcheck`: only contract series are in argcheck’s namespace. The application’s own Summary and counter pass unchanged.',
    provedBy: [
      test(
        'test/pipeline/regression/summary-under-a-contract-name.test.ts',
        'drops the Summary: only contract series are in argcheck’s namespace',
      ),
      test(
        'test/pipeline/regression/summary-under-a-contract-name.test.ts',
        'leaves the application’s own Summary and counter as they were',
      ),
    ],
  },
  {
    id: 'collector-outside-contract',
    area: 'Collector allow-list',
    fault:
      '`tool_argument_*` metrics outside the twelve contract names (another name, spelling, type, monotonicity or unit) reached Prometheus with their `value` labels',
    expected:
      'Everything the Prometheus exporter would name `tool_argument*` must be one of the twelve, with the contract’s type and unit and only its labels; the rest is dropped whole. The application’s own metrics pass unchanged.',
    provedBy: [
      test(
        'test/pipeline/regression/tool-argument-metric-outside-the-contract.test.ts',
        'keeps only the contract series, with their contract labels',
      ),
      test(
        'test/pipeline/regression/tool-argument-metric-outside-the-contract.test.ts',
        'leaves the application’s own metrics as they were, value label included',
      ),
    ],
  },
  {
    id: 'collector-record-body',
    area: 'Collector allow-list',
    fault:
      'The body of argcheck’s check records was never bounded: a 5,005-character string body, or a map of them, went to the file and the log backend as sent',
    expected:
      'The body of a check record is removed, and a severity text other than INFO or WARN cleared (argcheck’s records carry neither); the application’s own records pass unchanged.',
    provedBy: [
      test(
        'test/pipeline/regression/argcheck-record-body-not-bounded.test.ts',
        'removes a string body',
      ),
      test(
        'test/pipeline/regression/argcheck-record-body-not-bounded.test.ts',
        'removes a map body',
      ),
      test(
        'test/pipeline/regression/argcheck-record-body-not-bounded.test.ts',
        'keeps a severity text only when it is INFO or WARN',
      ),
      test(
        'test/pipeline/regression/argcheck-record-body-not-bounded.test.ts',
        'leaves the application’s own record, long body and all, as it was',
      ),
    ],
  },
  {
    id: 'collector-scope-without-event',
    area: 'Collector allow-list',
    fault:
      'Records under argcheck’s instrumentation scope without its check event name (or with another) passed untouched, an `authorization` attribute included',
    expected:
      'argcheck emits one kind of record: anything else under its scope is dropped. Records of other scopes are the application’s and pass unchanged.',
    provedBy: [
      test(
        'test/pipeline/regression/argcheck-scope-record-without-event-name.test.ts',
        'drops every record under argcheck’s scope that is not its check or tool-definition event',
      ),
      test(
        'test/pipeline/regression/argcheck-scope-record-without-event-name.test.ts',
        'leaves the application’s own record, authorization attribute and all, as it was',
      ),
    ],
  },
  {
    id: 'collector-event-name-attribute',
    area: 'Collector allow-list',
    fault:
      'A check record naming its event in the `event.name` attribute (older SDKs) left the collector without any event name, so `argcheck report` skipped it',
    expected:
      'The collector moves the name into the record’s event-name field: every check record leaves in one form, and `argcheck report` counts it.',
    provedBy: [
      test(
        'test/pipeline/regression/event-name-attribute-lost.test.ts',
        'is counted by argcheck report',
      ),
      test(
        'test/pipeline/regression/event-name-attribute-lost.test.ts',
        'leaves with the event name in its field and only contract attributes',
      ),
    ],
  },
  {
    id: 'startup-burst',
    area: 'Pipeline and fleet',
    fault:
      'A burst of fail-opens right after start-up was invisible to `increase()`: Prometheus does not count the step from no series to its first sample',
    expected:
      'The instrumentation exports every configured series at zero from start-up, so Prometheus holds the zero before the burst and `increase()`, and the shipped `ToolArgumentCheckUnavailable` alert, count it.',
    provedBy: [
      test(
        'test/e2e/startup-burst.test.ts',
        'lands the whole burst between two scrapes, and increase() counts it where the zero came first',
      ),
    ],
  },
  {
    id: 'processes-without-instance-id',
    area: 'Pipeline and fleet',
    fault:
      'Processes of one service without `service.instance.id` (NodeSDK’s default resource) exported the same series; the Prometheus exporter kept the last one',
    expected:
      'The collector composes `service.instance.id` from `host.name` and `process.pid` (`host:pid`, or `pid:<pid>`), so each process keeps its own series; an instance id given is kept.',
    provedBy: [
      test(
        'test/pipeline/regression/processes-without-instance-id-overwrite-each-other.test.ts',
        'keeps one series per process: host:pid, pid alone, or the instance id given',
      ),
    ],
  },
  {
    id: 'demo-instance-id',
    area: 'Pipeline and fleet',
    fault:
      'The demo’s series carried no `service.instance.id`, so Prometheus gave them the collector’s address as `instance`: two runs wrote one set of series',
    expected:
      'Every export of a demo run carries one `service.instance.id`, `argcheck-demo-<uuid>`, and each run its own.',
    provedBy: [
      test(
        'packages/cli/test/regression/demo-instance-was-the-collector-address.test.ts',
        'gives every export of a run one service.instance.id, and each run its own',
      ),
    ],
  },
  {
    id: 'stack-stops',
    area: 'Pipeline and fleet',
    fault: '`npm run stack`: a program failing to start left the programs already started running',
    expected:
      'Everything already started is stopped by its process id, and the stack exits with status 1, naming the program that failed.',
    provedBy: [
      test(
        'test/stack/stack-stops.test.ts',
        'stops the collector, Alertmanager and the receiver it started when Prometheus exits at start-up',
      ),
    ],
  },
  {
    id: 'prometheus-listens-everywhere',
    area: 'Pipeline and fleet',
    fault:
      'The Prometheus command in docs/pipeline.md listened on 0.0.0.0:9090 (Prometheus and Alertmanager listen on every interface unless told)',
    expected:
      'Every command that starts Prometheus or Alertmanager, in the docs and in the deploy files’ comments, listens on 127.0.0.1 (`--web.listen-address`), and Alertmanager’s cluster port is off or on loopback.',
    provedBy: [
      test(
        'test/pipeline/regression/prometheus-command-listens-on-every-interface.test.ts',
        'finds the commands in docs/pipeline.md and the deploy files',
      ),
    ],
  },
  {
    id: 'install-tools-services',
    area: 'Pipeline and fleet',
    fault:
      'Installing the Debian packages (`deploy/install-tools.sh`), which enable services listening on every interface',
    expected:
      'A policy-rc.d refusing every start (exit 101) is in place from before `apt-get install` until the script exits, so no service starts; the docs run Prometheus and Alertmanager on directories from `mktemp -d`.',
    provedBy: [
      test(
        'test/pipeline/regression/package-services-start-before-disabled.test.ts',
        'install-tools.sh refuses service starts (policy-rc.d, exit 101) from before apt-get install until it exits',
      ),
    ],
  },
  {
    id: 'healthy-pipeline-alerts',
    area: 'Pipeline and fleet',
    fault:
      'A healthy pipeline: MCP-derived sets listed once and checked for hours, unreadable JSON arguments now and then',
    expected:
      'No `ToolArgumentValueSetStale` (derived sets are `source="tool_schema"`, renewed every TTL from the listing held) and no `ToolArgumentCheckUnavailable` (`reason="unreadable"` is the model’s, with its own ratio `tool_argument:unreadable:ratio_rate1h`); an owner that stops answering still fires both.',
    provedBy: [
      test(
        'test/pipeline/regression/alerts-fire-on-healthy-pipelines.test.ts',
        'an MCP-derived set listed once and checked for three hours raises no ToolArgumentValueSetStale',
      ),
      test(
        'test/pipeline/regression/alerts-fire-on-healthy-pipelines.test.ts',
        'unreadable arguments against a healthy owner raise no ToolArgumentCheckUnavailable',
      ),
      test(
        'test/pipeline/regression/alerts-fire-on-healthy-pipelines.test.ts',
        'an owner that stops answering still raises ToolArgumentValueSetStale, then ToolArgumentCheckUnavailable',
      ),
    ],
  },
];
