import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { Point } from '@argcheck/testing/metrics';
import { NODE_22_REASON, skipBelowNode22 } from '../frameworks/helpers/node-version.js';
import { inSet, refundSeries } from '../helpers/fixtures.js';

const run = promisify(execFile);
const probe = fileURLToPath(
  new URL('../frameworks/fixtures/mastra-attribution-probe.js', import.meta.url),
);

describe(`attribution through Mastra, auto-patched under the ESM loader hook (${NODE_22_REASON})`, function () {
  this.timeout(120_000);
  before(function () {
    skipBelowNode22(this, '@mastra/core');
  });

  it('names each agent’s model, provider and name on its calls’ series', async () => {
    const { stdout } = await run(process.execPath, [probe], { timeout: 60_000 });
    const { checks } = JSON.parse(stdout) as { checks: Point[] };
    const by = (model: string, agent: string) => ({
      'gen_ai.request.model': model,
      'gen_ai.provider.name': 'openai',
      'gen_ai.agent.name': agent,
    });
    const sorted = (points: Point[]) =>
      [...points].sort((a, b) =>
        JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)),
      );
    expect(sorted(checks)).to.deep.equal(
      sorted([
        {
          attributes: refundSeries({ ...by('gpt-old', 'support'), ...inSet(true, true) }),
          value: 1,
        },
        {
          attributes: refundSeries({ ...by('gpt-old', 'support'), ...inSet(false, false) }),
          value: 1,
        },
        {
          attributes: refundSeries({ ...by('gpt-new', 'billing'), ...inSet(false, false) }),
          value: 1,
        },
      ]),
    );
  });
});
