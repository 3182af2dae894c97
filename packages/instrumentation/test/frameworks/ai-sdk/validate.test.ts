import { expect } from 'chai';
import type * as AiModule from 'ai';
import type * as ZodModule from 'zod';
import { REFUND_ARGUMENTS, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';
import { NODE_22_REASON, skipBelowNode22 } from '../helpers/node-version.js';

/** The part of a checked tool's `inputSchema` the SDK calls before `execute`. */
interface Validating {
  validate(value: unknown): unknown;
}

describe(`AI SDK — a checked tool's validate (${NODE_22_REASON})`, function () {
  let ai: typeof AiModule;
  let z: typeof ZodModule.z;
  let h: Harness | undefined;

  before(async function () {
    skipBelowNode22(this, 'ai');
    ai = await import('ai');
    ({ z } = await import('zod'));
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('decides a call within validate() once the tool is listed: its record is written before anything is awaited', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      logSampleRatio: 1,
    });
    await h.inst.ready();
    const tools = h.inst.wrapAiSdkTools({
      refund_order: ai.tool({
        inputSchema: z.object({ order_id: z.string(), reason_code: z.string() }),
        execute: () => Promise.resolve('refunded'),
      }),
    });
    const schema = tools.refund_order.inputSchema as unknown as Validating;
    // The first call reads the tool's own schema and lists the tool.
    await schema.validate({ order_id: 'A-1', reason_code: 'DAMAGED' });
    const before = h.records().length;
    const pending = schema.validate({ order_id: 'A-2', reason_code: 'LATE' });
    const during = h.records().length;
    expect(await pending).to.deep.include({
      success: true,
      value: { order_id: 'A-2', reason_code: 'LATE' },
    });
    expect([before, during, h.records().length]).to.deep.equal([1, 2, 2]);
  });
});
