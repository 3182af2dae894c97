// Owner faults, outages and recovery, and TTL behaviour: the real provider
// and checker over a loopback HTTP owner or a scripted source, on a fake clock.
import { createArgumentChecker, createValueSetProvider, httpValueSet } from '@argcheck/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { num } from '../lib/report.mjs';
import {
  CHECKED,
  CODES,
  FakeClock,
  callsChanged,
  instrumented,
  json,
  loopbackOwner,
  nsPerCall,
} from './harness.mjs';

const MIN = 60_000;

/** Provider + reject-mode checker over a loopback owner, on a fake clock, first fetch done. */
async function overHttp(options = {}) {
  const owner = await loopbackOwner();
  const clock = new FakeClock();
  const events = [];
  const provider = createValueSetProvider({
    sources: { refunds: httpValueSet(owner.url, options.http) },
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
function inSetCalls(checker) {
  const inputs = Array.from({ length: 1_000 }, (_, i) => ({ reason_code: CODES[i % 6] }));
  const outcomes = inputs.map((args) => checker.check('refund_order', args));
  return { changed: callsChanged(outcomes, inputs), n: inputs.length };
}

const lastRejection = (events) => events.filter((e) => e.type === 'refresh_rejected').at(-1);

/** A refresh whose answer the owner gets wrong in `behave`; what the provider made of it. */
async function refusedRefresh(behave, http) {
  const h = await overHttp({ http });
  try {
    h.owner.behave(behave);
    await h.expire();
    const calls = inSetCalls(h.checker);
    const status = h.provider.status()[0];
    return {
      figure:
        `refused as \`${lastRejection(h.events)?.reason}\`; ${status.size} members still served (${status.state}); ` +
        `${calls.changed} of ${num(calls.n)} in-set calls changed`,
      data: { rejection: lastRejection(h.events), status, calls },
      ok: calls.changed === 0 && status.size === 6,
    };
  } finally {
    await h.close();
  }
}

export const ownerFaults = [
  {
    fault: 'The owner answers HTTP 503 when the set is due for refresh',
    expected:
      'The previous set keeps checking, served `stale`; the call goes out untouched; retries back off (750 ms, 1.5 s, 3 s, … 45 s).',
    proof: [
      [
        'packages/core/test/sources/http-through-provider.test.ts',
        'fails a non-2xx answer as fetch_failed and keeps the previous set',
      ],
      [
        'packages/core/test/checker/owner-faults.test.ts',
        'owner rejects on refresh: the previous set keeps checking',
        ['on refresh: the previous set keeps checking', "'rejects'"],
      ],
      [
        'packages/core/test/provider/backoff.test.ts',
        'doubles from 1 s, caps at 60 s, and keeps half the delay fixed',
      ],
    ],
    async run() {
      const h = await overHttp();
      try {
        h.owner.behave((_req, res) => json(res, 503, { error: 'down' }));
        await h.expire();
        const calls = inSetCalls(h.checker);
        const failed = h.events.filter((e) => e.type === 'fetch_failed');
        const status = h.provider.status()[0];
        return {
          figure:
            `${calls.changed} of ${num(calls.n)} calls changed; served ${status.state} (${status.size} members); ` +
            `retries after ${failed.map((e) => `${num(e.retryInMs)} ms`).join(', ')}`,
          data: { calls, status, failed: failed.length, ownerRequests: h.owner.stats.requests },
          ok: calls.changed === 0 && status.state === 'stale',
        };
      } finally {
        await h.close();
      }
    },
  },
  {
    fault: 'The owner accepts the connection and never answers',
    expected:
      'Checks never wait for it: the set being served keeps answering at the usual cost; the load is aborted at `fetchTimeoutMs` (2 s) and counted as `timeout`.',
    proof: [
      [
        'packages/core/test/provider/get.test.ts',
        'returns at once, from a preallocated object, while a fetch hangs',
      ],
      [
        'packages/core/test/provider/failures.test.ts',
        'aborts the signal of a load that timed out, and ignores its late answer',
      ],
      [
        'packages/core/test/checker/owner-faults.test.ts',
        'owner hangs past fetchTimeoutMs on refresh: the previous set keeps checking',
        ["'hangs past fetchTimeoutMs'", 'on refresh: the previous set keeps checking'],
      ],
    ],
    async run() {
      const h = await overHttp();
      const hung = [];
      try {
        const args = CODES.map((reason_code) => ({ reason_code }));
        nsPerCall((i) => h.checker.check('refund_order', args[i % 6])); // warm up
        const before = nsPerCall((i) => h.checker.check('refund_order', args[i % 6]));
        h.owner.behave((req, res) => hung.push(res)); // never answers
        await h.clock.tick(300_000); // TTL: the refresh starts and hangs
        await sleep(50); // the request is on the wire
        const during = nsPerCall((i) => h.checker.check('refund_order', args[i % 6]));
        await h.clock.tick(2_000);
        const failed = h.events.filter((e) => e.type === 'fetch_failed').at(-1);
        return {
          figure:
            `check ${num(during)} ns while the fetch hangs, ${num(before)} ns before; ` +
            `the load ended as \`${failed?.reason}\` after ${num(failed?.durationMs)} ms (fake clock)`,
          data: { nsBefore: before, nsDuring: during, failed },
          ok: failed?.reason === 'timeout',
        };
      } finally {
        for (const res of hung) res.destroy();
        await h.close();
      }
    },
  },
  {
    fault: 'The owner answers 200 with a body that is not JSON',
    expected:
      'The refresh is refused as `malformed` (`invalid_payload`); the previous set is kept.',
    proof: [
      [
        'packages/core/test/sources/http-through-provider.test.ts',
        'when the owner returns a body that is not JSON: keeps serving the previous good set, stale',
        ["'returns a body that is not JSON'", 'keeps serving the previous good set, stale'],
      ],
    ],
    run: () => refusedRefresh((_req, res) => res.writeHead(200).end('<html>maintenance</html>')),
  },
  {
    fault: 'The owner answers JSON of the wrong shape (`{ "codes": [...] }`)',
    expected:
      'Refused as `malformed`; the previous set is kept; the detail names the keys it found, never the values.',
    proof: [
      [
        'packages/core/test/provider/failures.test.ts',
        'and returns the wrong shape: keeps serving the previous good set, stale',
        ["'returns the wrong shape'", 'keeps serving the previous good set, stale'],
      ],
      [
        'packages/core/test/sources/parse-payload.test.ts',
        'never quotes payload values in its detail',
      ],
    ],
    run: () => refusedRefresh((_req, res) => json(res, 200, { codes: CODES })),
  },
  {
    fault: 'The owner answers an empty list (mid-deploy)',
    expected: 'Refused as `empty`; the previous set is kept.',
    proof: [
      [
        'packages/core/test/provider/failures.test.ts',
        'and returns an empty list: keeps serving the previous good set, stale',
        ["'returns an empty list'", 'keeps serving the previous good set, stale'],
      ],
    ],
    run: () => refusedRefresh((_req, res) => json(res, 200, [])),
  },
  {
    fault: 'The owner answers a list that lost more than half its members (truncated response)',
    expected: 'Refused as `shrunk` (`maxShrinkRatio` 0.5); the previous set is kept.',
    proof: [
      [
        'packages/core/test/provider/failures.test.ts',
        'rejects it and keeps serving the previous set',
      ],
      [
        'packages/core/test/checker/owner-faults.test.ts',
        'a refresh that lost more than half the members is refused; the old set keeps checking',
      ],
    ],
    run: () => refusedRefresh((_req, res) => json(res, 200, CODES.slice(0, 2))),
  },
  {
    fault: 'The owner streams an endless body',
    expected:
      'Reading stops as soon as `maxBytes` have arrived and the connection is dropped; refused as `too_large`; the previous set is kept.',
    proof: [
      [
        'packages/core/test/sources/http-value-set.test.ts',
        'stops reading a streamed body at maxBytes and drops the connection',
      ],
      [
        'packages/core/test/sources/http-through-provider.test.ts',
        'when the owner returns a body over maxBytes: keeps serving the previous good set, stale',
        ["'returns a body over maxBytes'", 'keeps serving the previous good set, stale'],
      ],
    ],
    async run() {
      const maxBytes = 64 * 1024;
      let sent = 0;
      const result = await refusedRefresh(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('["LATE"');
          const chunk = `,${JSON.stringify('X'.repeat(1_000))}`.repeat(16);
          const pump = () => {
            while (!res.destroyed && sent < 64 * 2 ** 20) {
              sent += chunk.length;
              if (!res.write(chunk)) return res.once('drain', pump);
            }
            return undefined;
          };
          res.on('close', () => undefined);
          pump();
        },
        { maxBytes },
      );
      return {
        ...result,
        figure: `${result.figure}; the owner had written ${num(sent / 1024)} KiB when the connection dropped (maxBytes ${num(maxBytes / 1024)} KiB)`,
        data: { ...result.data, bytesSent: sent },
      };
    },
  },
  {
    fault: 'The owner is unreachable from the start (connection refused)',
    expected:
      'Checks report `unavailable` (`fetch_failed`) and every call goes out untouched, in every mode; `tool_argument_check_unavailable{reason}` counts them.',
    proof: [
      [
        'packages/core/test/checker/membership.test.ts',
        'reports an unavailable set and lets the call through untouched',
      ],
      [
        'packages/core/test/checker/owner-faults.test.ts',
        'owner rejects, no set yet: unavailable (fetch_failed), the call goes through',
        ['no set yet: unavailable (${reason}), the call goes through'],
      ],
      [
        'packages/instrumentation/test/telemetry/check-counters.test.ts',
        'count checks that could not run, by reason, and let the call through',
      ],
    ],
    async run() {
      const closed = await loopbackOwner();
      const url = closed.url;
      await closed.close();
      let changed = 0;
      let unavailable = 0;
      let n = 0;
      for (const mode of ['observe', 'normalise', 'reject']) {
        const t = instrumented({
          valueSets: { refunds: httpValueSet(url) },
          checkedArguments: CHECKED,
          mode,
          clock: new FakeClock(),
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
        ok: changed === 0 && unavailable === n,
      };
    },
  },
];

/** A fake clock, an owner that goes down when told, and a provider over it (not yet fetched). */
function scriptedProvider(options = {}) {
  const clock = new FakeClock();
  const owner = { down: false, loads: 0, members: [...CODES] };
  const provider = createValueSetProvider({
    sources: { refunds: scriptedSource(owner) },
    clock,
    ...options,
  });
  return { clock, owner, provider };
}

/** A scripted owner for long fake-clock runs: `down` decides whether loads fail. */
function scriptedSource(owner) {
  return {
    kind: 'function',
    load: () => {
      owner.loads += 1;
      return owner.down
        ? Promise.reject(new Error('refunds is down'))
        : Promise.resolve(owner.members);
    },
  };
}

export const outages = [
  {
    fault: 'A 40-minute owner outage (TTL 5 min, `maxStaleMs` 30 min)',
    expected:
      'Served `stale` from the TTL until 30 min past it, then `unavailable` (`expired`) — checks go on, calls untouched; retries back off to one per 45 s; the first retry after the owner is back makes the set fresh.',
    proof: [
      [
        'packages/core/test/provider/outage.test.ts',
        'serves stale until maxStale, then expired, retrying with backoff, then fresh',
      ],
    ],
    async run() {
      const { clock, owner, provider } = scriptedProvider({
        random: () => 0.5,
        maxStaleMs: 30 * MIN,
      });
      const checker = createArgumentChecker({ valueSets: provider, checkedArguments: CHECKED });
      await provider.ready();
      const t0 = clock.now();
      owner.down = true;
      let changed = 0;
      let maxStaleAge = 0;
      const states = {};
      let expiredAt;
      let freshAgainAt;
      // One check per simulated second for 45 minutes; the owner is back at 40.
      for (let s = 1; s <= 45 * 60; s++) {
        if (s === 40 * 60) owner.down = false;
        await clock.tick(1_000);
        const args = { reason_code: CODES[s % 6] };
        const outcome = checker.check('refund_order', args);
        if (outcome.action !== 'call' || outcome.args !== args) changed += 1;
        const status = provider.status()[0];
        states[status.state] = (states[status.state] ?? 0) + 1;
        if (status.state === 'stale') maxStaleAge = Math.max(maxStaleAge, status.ageSeconds);
        if (status.reason === 'expired' && expiredAt === undefined) expiredAt = s;
        if (s > 40 * 60 && status.state === 'fresh' && freshAgainAt === undefined) freshAgainAt = s;
      }
      provider.close();
      return {
        figure:
          `${changed} of ${num(45 * 60)} calls changed; ${owner.loads - 1} fetches in 45 min; stale up to ` +
          `${num(maxStaleAge)} s old; expired at ${num(expiredAt / 60, 1)} min; fresh ${num(freshAgainAt - 40 * 60)} s after the owner came back`,
        data: {
          changed,
          fetches: owner.loads - 1,
          maxStaleAge,
          expiredAtS: expiredAt,
          recoveredAfterS: freshAgainAt - 40 * 60,
          states,
          t0,
        },
        ok: changed === 0 && freshAgainAt !== undefined,
      };
    },
  },
  {
    fault: 'The owner comes back after the set expired, with far fewer members',
    expected:
      'The shrink guard protects a set being served, not an expired one: the new list is accepted.',
    proof: [
      [
        'packages/core/test/provider/refresh.test.ts',
        'once a set has expired, accepts a list much smaller than the one that expired',
      ],
    ],
    async run() {
      const { clock, owner, provider } = scriptedProvider({
        random: () => 0.5,
        maxStaleMs: 0,
      });
      await provider.ready();
      owner.down = true;
      await clock.tick(300_000 + 1_000);
      const expired = provider.get('refunds');
      owner.down = false;
      owner.members = ['LATE'];
      await provider.refresh('refunds');
      const after = provider.get('refunds');
      provider.close();
      return {
        figure: `${expired.reason ?? expired.state} → ${after.state} with ${after.set?.size} member (was 6)`,
        data: { expired, after: { state: after.state, size: after.set?.size } },
        ok: after.state === 'fresh' && after.set?.size === 1,
      };
    },
  },
];

export const ttl = [
  {
    fault: 'The owner adds a member (the seventh refund code)',
    expected:
      'Calls with the new member count as mismatches until the TTL passes, then the background refresh brings it in; no restart.',
    proof: [
      [
        'packages/core/test/provider/refresh.test.ts',
        'picks up a seventh code once the TTL has passed and the background refresh completes',
      ],
      [
        'packages/core/test/checker/owner-faults.test.ts',
        'a seventh code added by the owner is in set once the TTL refresh completes',
      ],
    ],
    async run() {
      const out = {};
      for (const ttlMs of [300_000, 30_000]) {
        // random() = 0: no refresh jitter, the refresh comes at the TTL itself.
        const { clock, owner, provider } = scriptedProvider({ ttlMs, random: () => 0 });
        const checker = createArgumentChecker({ valueSets: provider, checkedArguments: CHECKED });
        await provider.ready();
        owner.members = [...CODES, 'MISSING_PARTS'];
        let s = 0;
        while (!checker.check('refund_order', { reason_code: 'MISSING_PARTS' }).findings[0].inSet) {
          await clock.tick(1_000);
          s += 1;
        }
        provider.close();
        out[ttlMs] = s;
      }
      return {
        figure: `in set ${num(out[300_000])} s after the owner added it with the default TTL (300 s), ${num(out[30_000])} s with \`ttlMs\` 30 s`,
        data: out,
        ok: out[300_000] === 300 && out[30_000] === 30,
      };
    },
  },
  {
    fault: 'No good refresh for hours (defaults)',
    expected:
      'Fresh for 300 s, `stale` for 3,600 s more, then `unavailable` (`expired`): a set that never refreshes becomes visible.',
    proof: [
      [
        'packages/core/test/provider/defaults.test.ts',
        'keeps a set fresh for 300 s, then stale for 3,600 s, then expired',
      ],
    ],
    async run() {
      const { clock, owner, provider } = scriptedProvider();
      await provider.ready();
      owner.down = true;
      const changes = [];
      let last = 'fresh';
      for (let s = 1; s <= 2 * 3_600; s += 1) {
        await clock.tick(1_000);
        const st = provider.status()[0];
        const now = st.state === 'unavailable' ? st.reason : st.state;
        if (now !== last) changes.push(`${now} at ${num(s)} s`);
        last = now;
      }
      provider.close();
      return {
        figure: changes.join(', '),
        data: { changes, fetches: owner.loads },
        ok: changes.join() === ['stale at 300 s', 'expired at 3,900 s'].join(),
      };
    },
  },
  {
    fault: 'The TTL is changed at run time (`inst.setConfig({ ..., ttlMs })`)',
    expected:
      'A new provider is built with the new TTL and fetches at the new pace; the old one is closed; the counters keep their running totals.',
    proof: [
      [
        'packages/instrumentation/test/catalog/derived-sets.test.ts',
        'follows setConfig: a client listed before is checked under the new configuration',
      ],
      [
        'test/scale/ttl-change.test.ts',
        'setConfig with a new ttlMs fetches at the new pace, stops the old provider, and keeps the totals',
      ],
    ],
    async run() {
      const clock = new FakeClock();
      const owner = { down: false, loads: 0, members: [...CODES] };
      const source = scriptedSource(owner);
      const config = (ttlMs) => ({
        valueSets: { refunds: source },
        checkedArguments: CHECKED,
        clock,
        ttlMs,
        mcp: { enabled: false },
      });
      const t = instrumented(config(300_000));
      await t.inst.ready();
      for (let i = 0; i < 500; i++) t.inst.check('refund_order', { reason_code: 'LATE' });
      const loadsBefore = owner.loads;
      for (let m = 0; m < 10; m++) await clock.tick(MIN);
      const loadsOldTtl = owner.loads - loadsBefore;
      t.inst.setConfig(config(60_000));
      await t.inst.ready();
      const loadsAtSwitch = owner.loads;
      for (let i = 0; i < 500; i++) t.inst.check('refund_order', { reason_code: 'LATE' });
      for (let m = 0; m < 10; m++) await clock.tick(MIN);
      const loadsNewTtl = owner.loads - loadsAtSwitch;
      const total = (await t.collect()).sum('tool_argument_value_check');
      await t.close();
      return {
        figure: `${loadsOldTtl} fetches in 10 min at TTL 300 s, ${loadsNewTtl} in 10 min after switching to 60 s; checks counted ${num(total)} of 1,000 across the switch`,
        data: { loadsOldTtl, loadsNewTtl, total },
        ok: total === 1_000 && loadsNewTtl === 10,
      };
    },
  },
];
