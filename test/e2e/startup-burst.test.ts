import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpValueSet } from '@argcheck/core';
import { Agent, RogueApp, captureSdkDiagnostics } from './support/agents.js';
import { ValueSetOwner } from '@argcheck/testing/owners';
import { PipelineStack } from './support/stack.js';
import { waitFor } from '../helpers/wait.js';
import { recordFigure } from '@argcheck/testing/figures';

// A burst of fail-opens right after start-up, on the real collector and
// Prometheus. Prometheus's rate() and increase() ignore the step from "no
// series" to a series' first sample, so a burst that is the first value
// Prometheus ever sees is invisible to ToolArgumentCheckUnavailable. The
// instrumentation exports every configured series at zero from start-up:
// Prometheus holds the zero before the burst, and counts the burst.
//
// The application starts while the owner of its only set is down. Its first
// export (zeros) is scraped before traffic arrives; then 486 checks fail open
// in one synchronous burst, all between two scrapes. A hand-made counter
// without a zero (the way argcheck exported before) gets the same burst as
// the control: its increase() is 0.

const BURST = 486;
const SET = 'billing.plans';
const LEGACY_SET = 'billing.plans_legacy';
const AGENT = { name: 'plans-agent', instance: 'plans-agent-e2e-1' };
const LEGACY = { name: 'plans-legacy', instance: 'plans-legacy-e2e-1' };
const UNAVAILABLE = 'tool_argument_check_unavailable_total';

describe('e2e: a burst of fail-opens at start-up is counted by increase()', function () {
  this.timeout(120_000);

  let dir: string | undefined;
  let stack: PipelineStack | undefined;
  const owner = new ValueSetOwner();
  let agent: Agent | undefined;
  let legacy: RogueApp | undefined;
  const agentSeries = `${UNAVAILABLE}{job="${AGENT.name}", set="${SET}", reason="fetch_failed"}`;
  const legacySeries = `${UNAVAILABLE}{job="${LEGACY.name}", set="${LEGACY_SET}", reason="fetch_failed"}`;
  const prometheus = () => stack!.prometheus;
  const diagnostics = (): string => stack?.diagnostics() ?? '';

  before(async function () {
    captureSdkDiagnostics();
    dir = mkdtempSync(join(tmpdir(), 'argcheck-e2e-burst-'));
    owner.define(SET, [{ value: 'FREE' }, { value: 'PRO' }], 'unavailable');
    await owner.start();
    stack = new PipelineStack({ dir });
    await stack.start();

    agent = new Agent(AGENT, stack.otlpHttpUrl, {
      valueSets: { [SET]: httpValueSet(owner.url(SET)) },
      checkedArguments: { change_plan: { plan: SET } },
      logSampleRatio: 0,
      mcp: { enabled: false },
    });
    legacy = new RogueApp(LEGACY, stack.otlpHttpUrl, 'tool_argument_check_unavailable');
    // The first fetch fails (503): from now on a check of `plan` fails open.
    await agent.inst.ready();
    // Nothing has been checked yet, and Prometheus already holds the zero.
    await waitFor(
      'the zero of the fail-open series in Prometheus',
      async () => ((await prometheus().scalar(agentSeries)) === 0 ? true : undefined),
      { timeoutMs: 30_000, detail: diagnostics },
    );
  });

  after(async function () {
    this.timeout(60_000);
    await Promise.allSettled([agent?.shutdown(), legacy?.shutdown()]);
    await stack?.stop();
    await owner.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lands the whole burst between two scrapes, and increase() counts it where the zero came first', async () => {
    for (let i = 0; i < BURST; i++) agent!.inst.check('change_plan', { plan: 'PRO' });
    legacy!.counter.add(BURST, {
      tool: 'change_plan',
      argument: 'plan',
      set: LEGACY_SET,
      reason: 'fetch_failed',
    });
    await Promise.all([agent!.flush(), legacy!.flush()]);
    await waitFor(
      'the burst in Prometheus, from both applications',
      async () => {
        const [a, b] = await Promise.all([
          prometheus().scalar(agentSeries),
          prometheus().scalar(legacySeries),
        ]);
        return a === BURST && b === BURST ? true : undefined;
      },
      { timeoutMs: 30_000, detail: diagnostics },
    );
    // Two more scrapes after the burst, so increase() has samples on both sides.
    await waitFor(
      'two samples of the burst',
      async () => {
        const [series] = await prometheus().samples(`${agentSeries}[5m]`);
        const after = series?.values.filter(([, v]) => Number(v) === BURST).length ?? 0;
        return after >= 3 ? series : undefined;
      },
      { timeoutMs: 30_000, detail: diagnostics },
    );

    const [series] = await prometheus().samples(`${agentSeries}[5m]`);
    const values = series!.values.map(([, v]) => Number(v));
    // Zeros, then the whole burst at once: no scrape saw part of it.
    expect([...new Set(values)]).to.deep.equal([0, BURST]);
    expect(values.indexOf(BURST)).to.equal(values.lastIndexOf(0) + 1);

    const increase = async (selector: string): Promise<number | undefined> =>
      prometheus().scalar(`sum(increase(${selector}[10m]))`);
    // Extrapolation stops at the zero on the left and adds at most half a
    // scrape interval on the right.
    const counted = await increase(agentSeries);
    expect(counted).to.be.within(BURST, BURST * 1.3);
    // The control: its first sample is already the burst, which Prometheus does not count.
    const control = await increase(legacySeries);
    expect(control).to.equal(0);

    // The shipped alert expression sees the set whose zero came first, and only that one.
    const rule = (await prometheus().ruleGroups())
      .flatMap((g) => g.rules)
      .find((r) => r.name === 'ToolArgumentCheckUnavailable');
    const fired = await prometheus().query(rule!.query);
    expect(fired.map((s) => s.metric)).to.deep.equal([{ set: SET }]);
    recordFigure(
      'startup-burst',
      `a burst of ${BURST} fail-opens between two scrapes: \`increase()\` ${Math.round(counted ?? NaN)} where the zero came first, ${control} for an application without it; \`ToolArgumentCheckUnavailable\` fires for the first only`,
    );
  });
});
