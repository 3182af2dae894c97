// Issue 21, item 5: reject mode disclosed private sets. 300 rejected guesses
// against a 10,000-member `identity.active_handles` revealed real handles,
// five per repair message, and the instrumentation passed none of the core's
// repair options, so this could not be turned off. `repairDisclosure` now
// says, per set, what a repair message may name: `'none'` names no member,
// for a configured set and for one derived from an MCP tool's enum.
import { expect } from 'chai';
import { staticValueSet } from '@argcheck/core';
import { ErrorCode } from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { REASON_CODES, REASON_SET, sdkV1InMemory } from '@argcheck/testing/shop';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { recordFigure } from '@argcheck/testing/figures';

const HANDLES = Array.from({ length: 10_000 }, (_, i) => `u${String(i * 7).padStart(6, '0')}`);
const SET = 'identity.active_handles';

/** Handles named in the repair messages of 300 rejected near-miss guesses. */
function revealed(h: Harness): Set<string> {
  const known = new Set(HANDLES);
  const seen = new Set<string>();
  for (let i = 0; i < 300; i++) {
    // One edit from a real handle: the closest members are real handles.
    const guess = `${(HANDLES[i * 31] as string).slice(0, -1)}x`;
    const outcome = h.inst.check('assign_ticket', { assignee: guess });
    expect(outcome.action).to.equal('reject');
    for (const quoted of outcome.repairMessage?.match(/"[^"]+"/g) ?? []) {
      const text = quoted.slice(1, -1);
      if (known.has(text)) seen.add(text);
    }
  }
  return seen;
}

describe('regression: reject mode disclosed private sets', function () {
  // Each test compiles a 10,000-member set and checks 300 guesses: a second on a
  // busy machine, far past mocha's default. The timeout only catches a hang.
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const config = (repairDisclosure?: Record<string, 'list' | 'closest' | 'none'>) => ({
    valueSets: { [SET]: staticValueSet(HANDLES) },
    checkedArguments: { assign_ticket: { assignee: SET } },
    mode: 'reject' as const,
    clock: new ManualClock(),
    ...(repairDisclosure === undefined ? {} : { repairDisclosure }),
  });

  it("repairDisclosure 'none': 300 rejected guesses reveal no handle", async () => {
    h = harness(config({ [SET]: 'none' }));
    await h.inst.ready();
    const named = revealed(h);
    expect([...named]).to.deep.equal([]);
    recordFigure(
      'private-set-disclosure',
      `300 rejected near-miss guesses against 10,000 handles: ${named.size} real handles named with 'none'`,
    );
  });

  it('by default the closest members are still offered (the trade-off is the configuration’s)', async () => {
    h = harness(config());
    await h.inst.ready();
    const named = revealed(h);
    expect(named.size).to.be.greaterThan(300);
    recordFigure(
      'private-set-disclosure',
      `${named.size} distinct with the default (the closest members offered)`,
    );
  });

  it("'none' on a set derived from an MCP tool's enum names none of its members", async () => {
    const inst = new ToolArgumentInstrumentation({
      mode: 'reject',
      clock: new ManualClock(),
      mcp: { enabled: false },
      frameworks: { enabled: false },
      repairDisclosure: { [REASON_SET]: 'none' },
    });
    const shop = await sdkV1InMemory.connect({ instrument: (c) => inst.instrumentMcpClient(c) });
    try {
      await shop.client.listTools();
      await inst.ready();
      const result = (await shop.client.callTool({
        name: 'refund_order',
        arguments: { order_id: 'o-1', reason_code: 'CUSTOMER_UNHAPPY' },
      })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).to.equal(true);
      const text = result.content.map((c) => c.text).join('');
      expect(text).to.include(`must be a member of ${REASON_SET} (${REASON_CODES.length} values`);
      for (const code of REASON_CODES) expect(text).not.to.include(code);
      expect(shop.received()).to.deep.equal([]);
    } finally {
      await shop.close();
      inst.disable();
      inst.close();
    }
  });

  it('refuses a name that is neither a configured set nor a derived one, with UNKNOWN_SET', () => {
    expect(
      () =>
        new ToolArgumentInstrumentation({ ...config(), repairDisclosure: { identity: 'none' } }),
    )
      .to.throw(/repairDisclosure names "identity"/)
      .with.property('code', ErrorCode.UNKNOWN_SET);
  });
});
