import { expect } from 'chai';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import type { ArgumentChecker, Finding } from '../../src/types.js';
import { CODES, harness, SET } from '../helpers/provider-harness.js';
import type { Harness } from '../helpers/provider-harness.js';
import { recordFigure } from '@argcheck/testing/figures';

// The checker on top of the real provider: whatever the owner does, check()
// answers at once and lets the call through.
function checkerOver(h: Harness): ArgumentChecker {
  return createArgumentChecker({
    valueSets: h.provider,
    checkedArguments: { refund_order: { reason_code: SET } },
    mode: 'reject',
  });
}

function summary(findings: readonly Finding[]): string[] {
  return findings.map((f) =>
    f.status === 'unavailable' ? `unavailable:${f.reason}` : `inSet:${String(f.inSet)}`,
  );
}

const faults: [string, (h: Harness) => void, string][] = [
  ['throws', (h) => h.owner.throwsSynchronously(new Error('owner bug')), 'fetch_failed'],
  ['rejects', (h) => h.owner.rejects(new Error('ECONNRESET')), 'fetch_failed'],
  ['hangs past fetchTimeoutMs', (h) => h.owner.hangs(), 'timeout'],
  ['returns a wrong shape', (h) => h.owner.serves({ codes: ['LATE'] }), 'invalid_payload'],
  ['returns an empty list', (h) => h.owner.serves([]), 'invalid_payload'],
];

describe('check() over a failing owner', () => {
  for (const [what, fault, reason] of faults) {
    it(`owner ${what}, no set yet: unavailable (${reason}), the call goes through`, async () => {
      const h = harness();
      fault(h);
      const checker = checkerOver(h);
      expect(
        summary(checker.check('refund_order', { reason_code: 'LATE' }).findings),
      ).to.deep.equal(['unavailable:cold']);
      await h.clock.tick(2_000);
      const outcome = checker.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
      expect([outcome.action, summary(outcome.findings)]).to.deep.equal([
        'call',
        [`unavailable:${reason}`],
      ]);
      h.provider.close();
    });

    it(`owner ${what} on refresh: the previous set keeps checking`, async () => {
      const h = harness();
      const checker = checkerOver(h);
      await h.provider.ready();
      fault(h);
      await h.clock.tick(300_000 + 2_000);
      expect(h.provider.get(SET).state).to.equal('stale');
      expect(
        summary(checker.check('refund_order', { reason_code: 'LATE' }).findings),
      ).to.deep.equal(['inSet:true']);
      expect(checker.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' }).action).to.equal(
        'reject',
      );
      h.provider.close();
    });
  }

  it('a refresh that lost more than half the members is refused; the old set keeps checking', async () => {
    const h = harness();
    const checker = checkerOver(h);
    await h.provider.ready();
    h.owner.serves(['LATE', 'OTHER']);
    await h.clock.tick(300_000);
    expect(
      summary(checker.check('refund_order', { reason_code: 'DAMAGED' }).findings),
    ).to.deep.equal(['inSet:true']);
    h.provider.close();
  });

  it('1,000 checks on a cold set start exactly one fetch', async () => {
    const h = harness();
    const checker = checkerOver(h);
    const outcomes = Array.from({ length: 1_000 }, () =>
      checker.check('refund_order', { reason_code: 'LATE' }),
    );
    expect(outcomes.every((o) => o.action === 'call')).to.equal(true);
    expect(h.owner.calls).to.equal(1);
    const cold = outcomes.filter(
      (o) => summary(o.findings).join() === 'unavailable:cold' && o.action === 'call',
    ).length;
    recordFigure(
      'cold-set-checks',
      `${h.owner.calls} fetch for 1,000 checks (reject mode); ${cold.toLocaleString('en-US')} answered \`cold\` at once and let the call through; in set once the fetch ended`,
    );
    await h.clock.tick(0);
    expect(summary(checker.check('refund_order', { reason_code: 'LATE' }).findings)).to.deep.equal([
      'inSet:true',
    ]);
    expect(h.owner.calls).to.equal(1);
    h.provider.close();
  });

  it('a seventh code added by the owner is in set once the TTL refresh completes', async () => {
    const h = harness();
    const checker = checkerOver(h);
    await h.provider.ready();
    h.owner.serves([...CODES, 'PRICE_ADJUSTMENT']);
    const before = checker.check('refund_order', { reason_code: 'PRICE_ADJUSTMENT' });
    expect(before.action).to.equal('reject');
    await h.clock.tick(300_000);
    const after = checker.check('refund_order', { reason_code: 'PRICE_ADJUSTMENT' });
    expect([after.action, summary(after.findings)]).to.deep.equal(['call', ['inSet:true']]);
    h.provider.close();
  });
});
