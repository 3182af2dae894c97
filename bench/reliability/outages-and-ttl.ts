// Outages and recovery, and TTL behaviour: the real provider and checker over
// a scripted owner, on a fake clock, for simulated hours.
import {
  createArgumentChecker,
  createValueSetProvider,
  type ValueSetProviderOptions,
  type ValueSetSource,
} from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { num } from '../lib/report.js';
import { CHECKED, CODES, code, instrumented } from './harness.js';
import { test, type FaultRow } from './table.js';

const MIN = 60_000;

interface ScriptedOwner {
  down: boolean;
  loads: number;
  members: string[];
}

/** A scripted owner for long fake-clock runs: `down` decides whether loads fail. */
function scriptedSource(owner: ScriptedOwner): ValueSetSource {
  return {
    kind: 'function',
    load: () => {
      owner.loads += 1;
      return owner.down
        ? Promise.reject(new Error('refunds is down'))
        : Promise.resolve(owner.members.map((value) => ({ value })));
    },
  };
}

/** A fake clock, an owner that goes down when told, and a provider over it (not yet fetched). */
function scriptedProvider(options: Partial<ValueSetProviderOptions> = {}) {
  const clock = new ManualClock();
  const owner: ScriptedOwner = { down: false, loads: 0, members: [...CODES] };
  const provider = createValueSetProvider({
    sources: { refunds: scriptedSource(owner) },
    clock,
    ...options,
  });
  return { clock, owner, provider };
}

export const outages: FaultRow[] = [
  {
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
    async measure() {
      const { clock, owner, provider } = scriptedProvider({
        random: () => 0.5,
        maxStaleMs: 30 * MIN,
      });
      const checker = createArgumentChecker({ valueSets: provider, checkedArguments: CHECKED });
      await provider.ready();
      owner.down = true;
      let changed = 0;
      let maxStaleAge = 0;
      const states: Record<string, number> = {};
      let expiredAt: number | undefined;
      let freshAgainAt: number | undefined;
      // One check per simulated second for 45 minutes; the owner is back at 40.
      for (let s = 1; s <= 45 * 60; s++) {
        if (s === 40 * 60) owner.down = false;
        await clock.tick(1_000);
        const args = { reason_code: code(s) };
        const outcome = checker.check('refund_order', args);
        if (outcome.action !== 'call' || outcome.args !== args) changed += 1;
        const status = provider.status()[0];
        if (status === undefined) continue;
        states[status.state] = (states[status.state] ?? 0) + 1;
        if (status.state === 'stale') maxStaleAge = Math.max(maxStaleAge, status.ageSeconds ?? 0);
        if (status.reason === 'expired' && expiredAt === undefined) expiredAt = s;
        if (s > 40 * 60 && status.state === 'fresh' && freshAgainAt === undefined) freshAgainAt = s;
      }
      provider.close();
      const recoveredAfterS = (freshAgainAt ?? NaN) - 40 * 60;
      return {
        figure:
          `${changed} of ${num(45 * 60)} calls changed; ${owner.loads - 1} fetches in 45 min; stale up to ` +
          `${num(maxStaleAge)} s old; expired at ${num((expiredAt ?? NaN) / 60, 1)} min; fresh ${num(recoveredAfterS)} s after the owner came back`,
        data: {
          changed,
          fetches: owner.loads - 1,
          maxStaleAge,
          expiredAtS: expiredAt,
          recoveredAfterS,
          states,
        },
      };
    },
  },
  {
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
    async measure() {
      const { clock, owner, provider } = scriptedProvider({ random: () => 0.5, maxStaleMs: 0 });
      await provider.ready();
      owner.down = true;
      await clock.tick(300_000 + 1_000);
      const expired = provider.get('refunds');
      owner.down = false;
      owner.members = ['LATE'];
      await provider.refresh('refunds');
      const after = provider.get('refunds');
      provider.close();
      const size = after.state === 'unavailable' ? 0 : after.set.size;
      return {
        figure: `${expired.state === 'unavailable' ? expired.reason : expired.state} → ${after.state} with ${size} member (was 6)`,
        data: { expired: expired.state, after: { state: after.state, size } },
      };
    },
  },
];

export const ttl: FaultRow[] = [
  {
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
    async measure() {
      const out: Record<number, number> = {};
      for (const ttlMs of [300_000, 30_000]) {
        // random() = 0: no refresh jitter, the refresh comes at the TTL itself.
        const { clock, owner, provider } = scriptedProvider({ ttlMs, random: () => 0 });
        const checker = createArgumentChecker({ valueSets: provider, checkedArguments: CHECKED });
        await provider.ready();
        owner.members = [...CODES, 'MISSING_PARTS'];
        const inSet = () => {
          const finding = checker.check('refund_order', { reason_code: 'MISSING_PARTS' })
            .findings[0];
          return finding?.status === 'checked' && finding.inSet;
        };
        let s = 0;
        while (!inSet() && s < 3_600) {
          await clock.tick(1_000);
          s += 1;
        }
        provider.close();
        out[ttlMs] = s;
      }
      return {
        figure: `in set ${num(out[300_000] ?? NaN)} s after the owner added it with the default TTL (300 s), ${num(out[30_000] ?? NaN)} s with \`ttlMs\` 30 s`,
        data: out,
      };
    },
  },
  {
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
    async measure() {
      const { clock, owner, provider } = scriptedProvider();
      await provider.ready();
      owner.down = true;
      const changes: string[] = [];
      let last = 'fresh';
      for (let s = 1; s <= 2 * 3_600; s += 1) {
        await clock.tick(1_000);
        const st = provider.status()[0];
        const now = st?.state === 'unavailable' ? (st.reason ?? 'unavailable') : (st?.state ?? '');
        if (now !== last) changes.push(`${now} at ${num(s)} s`);
        last = now;
      }
      provider.close();
      return { figure: changes.join(', '), data: { changes, fetches: owner.loads } };
    },
  },
  {
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
    async measure() {
      const clock = new ManualClock();
      const owner: ScriptedOwner = { down: false, loads: 0, members: [...CODES] };
      const source = scriptedSource(owner);
      const config = (ttlMs: number) => ({
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
      };
    },
  },
];
