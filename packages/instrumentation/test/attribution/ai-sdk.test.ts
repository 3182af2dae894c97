import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { Point } from '@argcheck/testing/metrics';
import { NODE_22_REASON, skipBelowNode22 } from '../frameworks/helpers/node-version.js';

const run = promisify(execFile);
const probe = fileURLToPath(
  new URL('../frameworks/fixtures/ai-attribution-probe.js', import.meta.url),
);

interface Probed {
  checks: Point[];
  mismatches: Point[];
  calls: Point[];
}

async function probed(args: string[] = []): Promise<Probed> {
  const { stdout } = await run(process.execPath, [probe, ...args], { timeout: 60_000 });
  return JSON.parse(stdout) as Probed;
}

/**
 * `tool_definition` as docs/telemetry.md defines it: 12 hex digits of the
 * SHA-256 of `[description, canonical input schema]` as JSON. The probe does
 * not derive sets (`frameworks.deriveValueSets: false`), so no schema is read.
 */
const definition = (description: string) =>
  createHash('sha256')
    .update(JSON.stringify([description, '']))
    .digest('hex')
    .slice(0, 12);

const ORIGINAL = definition('Refund an order.');
const REWRITTEN = definition('Refund an order. reason_code is one of the codes listed.');

const names = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
const by = (model: string, toolDefinition: string, extra: Record<string, string> = {}) => ({
  'gen_ai.request.model': model,
  'gen_ai.provider.name': 'openai',
  ...extra,
  tool_definition: toolDefinition,
});
const check = (attribution: Record<string, string>, inSet: boolean, value: number): Point => ({
  attributes: {
    ...names,
    ...attribution,
    in_set: String(inSet),
    in_set_normalised: String(inSet),
  },
  value,
});

const sorted = (points: Point[]) =>
  [...points].sort((a, b) =>
    JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)),
  );

describe(`attribution through the AI SDK, auto-patched under the ESM loader hook (${NODE_22_REASON})`, function () {
  this.timeout(120_000);
  before(function () {
    skipBelowNode22(this, 'ai');
  });

  it('splits checks and mismatches exactly by model, tool definition and prompt version', async () => {
    const { checks, mismatches, calls } = await probed();
    const old = by('gpt-old', ORIGINAL);
    const fresh = by('gpt-new', ORIGINAL);
    const oldRewritten = by('gpt-old', REWRITTEN);
    const oldV7 = by('gpt-old', REWRITTEN, { 'gen_ai.prompt.version': 'v7' });
    expect(sorted(checks)).to.deep.equal(
      sorted([
        check(old, true, 2),
        check(old, false, 1),
        check(fresh, true, 1),
        check(fresh, false, 1),
        check(oldRewritten, true, 1),
        check(oldV7, true, 1),
      ]),
    );
    expect(sorted(mismatches)).to.deep.equal(
      sorted([
        { attributes: { ...names, ...old, shape: 'invented' }, value: 1 },
        { attributes: { ...names, ...fresh, shape: 'invented' }, value: 1 },
      ]),
    );
    const call = (attribution: Record<string, string>, value: number): Point => ({
      attributes: {
        tool: 'refund_order',
        integration: 'ai_sdk',
        coverage: 'checked',
        ...attribution,
      },
      value,
    });
    expect(sorted(calls)).to.deep.equal(
      sorted([call(old, 3), call(fresh, 2), call(oldRewritten, 1), call(oldV7, 1)]),
    );
  });

  it('keeps 40 distinct model ids to 10 values and one overflow value, every call counted', async () => {
    const { checks } = await probed(['--many']);
    const models = new Set(checks.map((p) => p.attributes['gen_ai.request.model']));
    expect(models.size).to.equal(11);
    expect(models.has('_other')).to.equal(true);
    expect(checks.reduce((sum, p) => sum + (p.value as number), 0)).to.equal(40);
    const other = checks.filter((p) => p.attributes['gen_ai.request.model'] === '_other');
    expect(other.reduce((sum, p) => sum + (p.value as number), 0)).to.equal(30);
  });
});
