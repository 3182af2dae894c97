// Issue 21, item 3: a configured set was not fetched until its first check
// (or ready()), so the first call of every process was `unavailable: cold`
// and, in reject mode, its invented value went through, even for a
// staticValueSet; status() showed `cold` indefinitely. Every configured set
// now starts loading when the instrumentation is enabled.
import { expect } from 'chai';
import { httpValueSet, staticValueSet } from '@argcheck/core';
import { ManualClock, settle } from '@argcheck/testing/clock';
import { HttpOwner } from '@argcheck/testing/owners';
import { REFUND_ARGUMENTS, REFUND_CODES, REFUNDS } from '../helpers/fixtures.js';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { recordFigure } from '@argcheck/testing/figures';

const INVENTED = { order_id: 'o-1', reason_code: 'CUSTOMER_UNHAPPY' };

describe('regression: the first calls of every process went unchecked', () => {
  let h: Harness | undefined;
  let owner: HttpOwner | undefined;
  afterEach(async () => {
    await h?.close();
    await owner?.close();
    h = undefined;
    owner = undefined;
  });

  it('reject: a static set is served to the very first call, with no check or ready() before it', async () => {
    h = harness({
      valueSets: { [REFUNDS]: staticValueSet(REFUND_CODES) },
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
    });
    await settle();
    expect(h.inst.valueSets.status().map((s) => [s.name, s.state])).to.deep.equal([
      [REFUNDS, 'fresh'],
    ]);
    const first = h.inst.check('refund_order', INVENTED);
    expect(first.action).to.equal('reject');
    expect(
      first.findings.map((f) => (f.status === 'checked' ? [f.inSet, f.shape] : f.status)),
    ).to.deep.equal([[false, 'invented']]);
    const next = Array.from({ length: 99 }, () => h!.inst.check('refund_order', INVENTED));
    const rejected = [first, ...next].filter((o) => o.action === 'reject').length;
    recordFigure(
      'first-calls',
      `the set \`${h.inst.valueSets.status()[0]?.state}\` before the first check; ${rejected} of the first 100 invented values rejected`,
    );
  });

  it('reject: an owner on loopback is asked as the instrumentation is enabled, and its set checks the first call', async () => {
    owner = await new HttpOwner().start();
    let asked!: () => void;
    const arrived = new Promise<void>((resolve) => (asked = resolve));
    const url = owner.on('/codes', (res) => {
      asked();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(REFUND_CODES));
    });
    h = harness({
      valueSets: { [REFUNDS]: httpValueSet(url) },
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
    });
    // The request arrives with nothing having asked for the set.
    await arrived;
    expect(owner.requests.map((r) => r.path)).to.deep.equal(['/codes']);
    await h.inst.ready();
    expect(h.inst.check('refund_order', INVENTED).action).to.equal('reject');
    expect(owner.requests).to.have.length(1);
  });

  it('an instrumentation made disabled loads nothing until it is enabled', async () => {
    const inst = new ToolArgumentInstrumentation({
      valueSets: { [REFUNDS]: staticValueSet(REFUND_CODES) },
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
      mcp: { enabled: false },
      frameworks: { enabled: false },
      enabled: false,
    });
    try {
      await settle();
      expect(inst.valueSets.status().map((s) => [s.name, s.state, s.reason])).to.deep.equal([
        [REFUNDS, 'unavailable', 'cold'],
      ]);
      inst.enable();
      await settle();
      expect(inst.valueSets.status().map((s) => [s.name, s.state])).to.deep.equal([
        [REFUNDS, 'fresh'],
      ]);
    } finally {
      inst.disable();
      inst.close();
    }
  });
});
