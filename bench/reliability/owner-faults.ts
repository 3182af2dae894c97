// Owner faults: the real provider and a reject-mode checker over a loopback
// HTTP owner that answers wrong, on a fake clock.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createArgumentChecker,
  createValueSetProvider,
  httpValueSet,
  type HttpValueSetOptions,
  type ValueSetEvent,
} from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { num } from '../lib/report.js';
import {
  CHECKED,
  CODES,
  code,
  callsChanged,
  instrumented,
  json,
  loopbackOwner,
  nsPerCall,
  type Behaviour,
} from './harness.js';
import { test, type FaultRow, type Figure } from './table.js';

/** Provider + reject-mode checker over a loopback owner, on a fake clock, first fetch done. */
async function overHttp(http?: HttpValueSetOptions) {
  const owner = await loopbackOwner();
  const clock = new ManualClock();
  const events: ValueSetEvent[] = [];
  const provider = createValueSetProvider({
    sources: { refunds: httpValueSet(owner.url, http) },
    clock,
    random: () => 0.5,
    onEvent: (e) => events.push(e),
  });
  const checker = createArgumentChecker({
    valueSets: provider,
    checkedArguments: CHECKED,
    mode: 'reject',
  });
  await provider.ready();
  return {
    owner,
    clock,
    events,
    provider,
    checker,
    /** TTL passes: the set goes stale and a refresh starts; wait for it to settle. */
    async expire() {
      await clock.tick(300_000);
      await provider.refresh('refunds');
    },
    async close() {
      provider.close();
      await owner.close();
    },
  };
}

/** 1,000 checks of in-set codes; how many did not go out untouched. */
function inSetCalls(checker: ReturnType<typeof createArgumentChecker>) {
  const inputs = Array.from({ length: 1_000 }, (_, i) => ({ reason_code: code(i) }));
  const outcomes = inputs.map((args) => checker.check('refund_order', args));
  return { changed: callsChanged(outcomes, inputs), n: inputs.length };
}

const lastRejection = (events: readonly ValueSetEvent[]) =>
  events.filter((e) => e.type === 'refresh_rejected').at(-1);

/** A refresh whose answer the owner gets wrong in `behave`; what the provider made of it. */
async function refusedRefresh(behave: Behaviour, http?: HttpValueSetOptions): Promise<Figure> {
  const h = await overHttp(http);
  try {
    h.owner.behave(behave);
    await h.expire();
    const calls = inSetCalls(h.checker);
    const status = h.provider.status()[0];
    const rejection = lastRejection(h.events);
    const reason = rejection?.type === 'refresh_rejected' ? rejection.reason : 'none';
    return {
      figure:
        `refused as \`${reason}\`; ${status?.size} members still served (${status?.state}); ` +
        `${calls.changed} of ${num(calls.n)} in-set calls changed`,
      data: { rejection, status, calls },
    };
  } finally {
    await h.close();
  }
}

const HTTP_THROUGH_PROVIDER = 'packages/core/test/sources/http-through-provider.test.ts';
const OWNER_FAULTS = 'packages/core/test/checker/owner-faults.test.ts';
const FAILURES = 'packages/core/test/provider/failures.test.ts';

export const ownerFaults: FaultRow[] = [
  {
    area: 'Owner faults',
    fault: 'The owner answers HTTP 503 when the set is due for refresh',
    expected:
      'The previous set keeps checking, served `stale`; the call goes out untouched; retries back off (750 ms, 1.5 s, 3 s, … 45 s).',
    provedBy: [
      test(
        HTTP_THROUGH_PROVIDER,
        'fails a non-2xx answer as fetch_failed and keeps the previous set',
      ),
      test(OWNER_FAULTS, 'owner rejects on refresh: the previous set keeps checking'),
      test(
        'packages/core/test/provider/backoff.test.ts',
        'doubles from 1 s, caps at 60 s, and keeps half the delay fixed',
      ),
    ],
    async measure() {
      const h = await overHttp();
      try {
        h.owner.behave((_req, res) => json(res, 503, { error: 'down' }));
        await h.expire();
        const calls = inSetCalls(h.checker);
        const failed = h.events.flatMap((e) => (e.type === 'fetch_failed' ? [e] : []));
        const status = h.provider.status()[0];
        return {
          figure:
            `${calls.changed} of ${num(calls.n)} calls changed; served ${status?.state} (${status?.size} members); ` +
            `retries after ${failed.map((e) => `${num(e.retryInMs)} ms`).join(', ')}`,
          data: { calls, status, failed: failed.length, ownerRequests: h.owner.stats.requests },
        };
      } finally {
        await h.close();
      }
    },
  },
  {
    area: 'Owner faults',
    fault: 'The owner accepts the connection and never answers',
    expected:
      'Checks never wait for it: the set being served keeps answering at the usual cost; the load is aborted at `fetchTimeoutMs` (2 s) and counted as `timeout`.',
    provedBy: [
      test(
        'packages/core/test/provider/get.test.ts',
        'returns at once, from a preallocated object, while a fetch hangs',
      ),
      test(FAILURES, 'aborts the signal of a load that timed out, and ignores its late answer'),
      test(
        OWNER_FAULTS,
        'owner hangs past fetchTimeoutMs on refresh: the previous set keeps checking',
      ),
    ],
    async measure() {
      const h = await overHttp();
      const hung: { destroy(): void }[] = [];
      try {
        const args = [0, 1, 2, 3, 4, 5].map((i) => ({ reason_code: code(i) }));
        const check = (i: number) => h.checker.check('refund_order', args[i % 6]);
        nsPerCall(check); // warm up
        const before = nsPerCall(check);
        h.owner.behave((_req, res) => hung.push(res)); // never answers
        await h.clock.tick(300_000); // TTL: the refresh starts and hangs
        await sleep(50); // the request is on the wire
        const during = nsPerCall(check);
        await h.clock.tick(2_000);
        const failed = h.events.flatMap((e) => (e.type === 'fetch_failed' ? [e] : [])).at(-1);
        return {
          figure:
            `check ${num(during)} ns while the fetch hangs, ${num(before)} ns before; ` +
            `the load ended as \`${failed?.reason}\` after ${num(failed?.durationMs ?? NaN)} ms (fake clock)`,
          data: { nsBefore: before, nsDuring: during, failed },
        };
      } finally {
        for (const res of hung) res.destroy();
        await h.close();
      }
    },
  },
  {
    area: 'Owner faults',
    fault: 'The owner answers 200 with a body that is not JSON',
    expected:
      'The refresh is refused as `malformed` (`invalid_payload`); the previous set is kept.',
    provedBy: [
      test(
        HTTP_THROUGH_PROVIDER,
        'provider over httpValueSet (real HTTP server) when the owner returns a body that is not JSON keeps serving the previous good set, stale',
      ),
    ],
    measure: () =>
      refusedRefresh((_req, res) => res.writeHead(200).end('<html>maintenance</html>')),
  },
  {
    area: 'Owner faults',
    fault: 'The owner answers JSON of the wrong shape (`{ "codes": [...] }`)',
    expected:
      'Refused as `malformed`; the previous set is kept; the detail names the keys it found, never the values.',
    provedBy: [
      test(
        FAILURES,
        'provider: when the owner fails and returns the wrong shape keeps serving the previous good set, stale',
      ),
      test(
        'packages/core/test/sources/parse-payload.test.ts',
        'never quotes payload values in its detail',
      ),
    ],
    measure: () => refusedRefresh((_req, res) => json(res, 200, { codes: CODES })),
  },
  {
    area: 'Owner faults',
    fault: 'The owner answers an empty list (mid-deploy)',
    expected: 'Refused as `empty`; the previous set is kept.',
    provedBy: [
      test(
        FAILURES,
        'provider: when the owner fails and returns an empty list keeps serving the previous good set, stale',
      ),
    ],
    measure: () => refusedRefresh((_req, res) => json(res, 200, [])),
  },
  {
    area: 'Owner faults',
    fault: 'The owner answers a list that lost more than half its members (truncated response)',
    expected: 'Refused as `shrunk` (`maxShrinkRatio` 0.5); the previous set is kept.',
    provedBy: [
      test(FAILURES, 'rejects it and keeps serving the previous set'),
      test(
        OWNER_FAULTS,
        'a refresh that lost more than half the members is refused; the old set keeps checking',
      ),
    ],
    measure: () => refusedRefresh((_req, res) => json(res, 200, ['LATE', 'OTHER'])),
  },
  {
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
        HTTP_THROUGH_PROVIDER,
        'provider over httpValueSet (real HTTP server) when the owner returns a body over maxBytes keeps serving the previous good set, stale',
      ),
    ],
    async measure() {
      const maxBytes = 64 * 1024;
      let sent = 0;
      const result = await refusedRefresh(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('["LATE"');
          const chunk = `,${JSON.stringify('X'.repeat(1_000))}`.repeat(16);
          const pump = (): void => {
            while (!res.destroyed && sent < 64 * 2 ** 20) {
              sent += chunk.length;
              if (!res.write(chunk)) {
                res.once('drain', pump);
                return;
              }
            }
          };
          pump();
        },
        { maxBytes },
      );
      return {
        figure: `${result.figure}; the owner had written ${num(sent / 1024)} KiB when the connection dropped (maxBytes ${num(maxBytes / 1024)} KiB)`,
        data: { ...(result.data as object), bytesSent: sent },
      };
    },
  },
  {
    area: 'Owner faults',
    fault: 'The owner is unreachable from the start (connection refused)',
    expected:
      'Checks report `unavailable` (`fetch_failed`) and every call goes out untouched, in every mode; `tool_argument_check_unavailable{reason}` counts them.',
    provedBy: [
      test(
        'packages/core/test/checker/membership.test.ts',
        'reports an unavailable set and lets the call through untouched',
      ),
      test(
        OWNER_FAULTS,
        'owner rejects, no set yet: unavailable (fetch_failed), the call goes through',
      ),
      test(
        'packages/instrumentation/test/telemetry/check-counters.test.ts',
        'count checks that could not run, by reason, and let the call through',
      ),
    ],
    async measure() {
      const closed = await loopbackOwner();
      const url = closed.url;
      await closed.close();
      let changed = 0;
      let unavailable = 0;
      let n = 0;
      for (const mode of ['observe', 'normalise', 'reject'] as const) {
        const t = instrumented({
          valueSets: { refunds: httpValueSet(url) },
          checkedArguments: CHECKED,
          mode,
          clock: new ManualClock(),
        });
        await t.inst.ready();
        const inputs = Array.from({ length: 1_000 }, (_, i) => ({
          reason_code: i % 2 ? 'late' : 'CUSTOMER_UNHAPPY',
        }));
        changed += callsChanged(
          inputs.map((args) => t.inst.check('refund_order', args)),
          inputs,
        );
        n += inputs.length;
        unavailable += (await t.collect()).sum('tool_argument_check_unavailable');
        await t.close();
      }
      return {
        figure: `${changed} of ${num(n)} calls changed (observe, normalise, reject; all out of set); ${num(unavailable)} counted unavailable`,
        data: { changed, n, unavailable },
      };
    },
  },
];
