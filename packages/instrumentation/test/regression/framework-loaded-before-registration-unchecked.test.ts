/**
 * Regression: a framework loaded before registration, or imported by an ES
 * module application without the loader hook, left every counter at zero and
 * said nothing, even with OTEL_LOG_LEVEL=debug. Modules `require` loaded
 * before are now patched in place when the instrumentation is enabled; an ES
 * module application without the loader hook gets one warning naming the
 * modules and the fix.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../src/semconv.js';
import { freshLangChainCjs } from '../frameworks/langchain/load.js';
import { ManualClock } from '@argcheck/testing/clock';
import { inSet, REFUND_ARGUMENTS, refundSeries, refundSources } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';

const exec = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe('regression: a framework the hooks could not reach was unchecked in silence', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  afterEach(() => h?.close());

  it('LangChain loaded by require before the instrumentation: its tool calls are checked', async () => {
    const m = freshLangChainCjs();
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const refund = m.tools.tool(() => Promise.resolve('refunded'), {
      name: 'refund_order',
      description: 'Refund an order',
      schema: m.z.object({ order_id: m.z.string(), reason_code: m.z.string() }),
    });
    await refund.invoke({ order_id: 'o-1', reason_code: 'CUSTOMER_UNHAPPY' });
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(false, false)), value: 1 },
    ]);
  });

  it('an ES module application without the loader hook is told which modules go unchecked, and how to fix it', async () => {
    const { stdout } = await exec(process.execPath, [here('./fixtures/esm-app.js')]);
    const warnings = JSON.parse(stdout) as string[];
    expect(warnings).to.have.length(1);
    for (const part of [
      '@langchain/core',
      '@modelcontextprotocol/sdk',
      "module.register('@opentelemetry/instrumentation/hook.mjs', import.meta.url)",
      'inst.instrumentLangChainTool(tool)',
      'inst.instrumentMcpClient(client)',
    ]) {
      expect(warnings[0]).to.include(part);
    }
  });

  it('with the loader hook registered, it says nothing of the kind', async () => {
    const { stdout } = await exec(process.execPath, [
      '--import',
      here('../frameworks/fixtures/register.js'),
      here('./fixtures/esm-app.js'),
    ]);
    expect(JSON.parse(stdout)).to.deep.equal([]);
  });
});
