import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ATTRIBUTION_LABELS } from './dashboard-queries.js';
import { REPO_ROOT, requireCommand, run } from './tools.js';

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
}

function shippedRules(): Rule[] {
  const file = parse(
    readFileSync(join(REPO_ROOT, 'deploy/prometheus/rules/argcheck.rules.yml'), 'utf8'),
  ) as { groups: { rules: Rule[] }[] };
  return file.groups.flatMap((g) => g.rules);
}

/** The label lists of every `sum by (...)`, `max by (...)`, `on (...)` in an expression. */
function groupings(expr: string): string[][] {
  return [...expr.matchAll(/\b(?:by|on|ignoring|without)\s*\(([^)]*)\)/g)].map((m) =>
    m[1]!
      .split(',')
      .map((l) => l.trim())
      .filter((l) => l !== ''),
  );
}

// The shipped pipeline configuration, checked by the real tools:
// promtool/amtool for the Prometheus and Alertmanager side, the argcheck
// collector binary for otel-collector.yaml. A missing tool fails the test with
// what to run; nothing is skipped.

describe('pipeline: Prometheus rules and Alertmanager config', function () {
  this.timeout(120_000);

  it('pass promtool check/test and amtool check (deploy/prometheus/test-rules.sh)', () => {
    requireCommand('promtool');
    requireCommand('amtool');
    const result = run('bash', ['deploy/prometheus/test-rules.sh']);
    expect(result.status, result.output).to.equal(0);
    expect(result.stdout).to.match(/promtool test rules/);
    expect(result.output).not.to.match(/FAILED/);
    // One SUCCESS per unit-test file: a test file that promtool silently
    // skipped would be missing here.
    const testFiles = readdirSync(join(REPO_ROOT, 'deploy/prometheus/tests')).filter((f) =>
      f.endsWith('.test.yml'),
    );
    expect(testFiles.length).to.be.at.least(3);
    const unitSuccesses = result.output.match(/Unit Testing:[^\n]*\n\s*SUCCESS/g) ?? [];
    expect(unitSuccesses.length, result.output).to.equal(testFiles.length);
  });

  it('define the three issue alerts with severity, component and the runbook annotations', () => {
    const rules = readFileSync(
      join(REPO_ROOT, 'deploy/prometheus/rules/argcheck.rules.yml'),
      'utf8',
    );
    const runbooks = readFileSync(join(REPO_ROOT, 'docs/runbooks.md'), 'utf8');
    for (const alert of [
      'ToolArgumentInventionRate',
      'ToolArgumentCheckUnavailable',
      'ToolArgumentValueSetStale',
    ]) {
      const start = rules.indexOf(`- alert: ${alert}\n`);
      expect(start, alert).to.be.greaterThan(-1);
      const next = rules.indexOf('- alert:', start + 1);
      const block = rules.slice(start, next === -1 ? undefined : next);
      expect(block, alert).to.match(/\n\s+severity: \w+/);
      expect(block, alert).to.match(/\n\s+component: argcheck\n/);
      expect(block, alert).to.match(/\n\s+summary: /);
      expect(block, alert).to.match(/\n\s+description: /);
      const anchor = alert.toLowerCase();
      expect(block, alert).to.include(`runbook_url: docs/runbooks.md#${anchor}`);
      // The anchor exists: a "## <AlertName>" heading in docs/runbooks.md.
      expect(runbooks, `docs/runbooks.md heading for ${alert}`).to.match(
        new RegExp(`^## ${alert}\\s*$`, 'm'),
      );
    }
  });
});

describe('pipeline: the rules and the attribution labels', () => {
  const rules = shippedRules();
  const attribution: readonly string[] = ATTRIBUTION_LABELS;

  it('record the out-of-set ratio by model and by tool definition, and the repair first-retry success', () => {
    const byName = new Map(rules.filter((r) => r.record).map((r) => [r.record!, r.expr]));
    const expected: Record<string, string[]> = {
      'tool_argument:out_of_set_by_model:ratio_rate1h': [
        'tool',
        'argument',
        'set',
        'gen_ai_request_model',
      ],
      'tool_argument:out_of_set_by_tool_definition:ratio_rate1h': [
        'tool',
        'argument',
        'set',
        'tool_definition',
      ],
      'tool:repair_first_retry_success:ratio_rate1h': ['tool'],
    };
    const doc = readFileSync(join(REPO_ROOT, 'docs/pipeline.md'), 'utf8');
    for (const [name, labels] of Object.entries(expected)) {
      const expr = byName.get(name);
      expect(expr, name).to.be.a('string');
      // Numerator and denominator aggregate to the same labels: over
      // instances and the other attribution labels.
      expect(groupings(expr!), name).to.deep.equal([labels, labels]);
      expect(expr, name).to.match(/\) > 0\)\s*$/);
      expect(doc, `docs/pipeline.md lists ${name}`).to.include(`| \`${name}\``);
    }
    expect(byName.get('tool:repair_first_retry_success:ratio_rate1h')).to.match(
      /rate\(tool_argument_repair_outcome_total\{outcome="resolved"\}\[1h\]\)\)\s*\/\s*\(sum by \(tool\) \(rate\(tool_argument_repair_outcome_total\[1h\]\)\)/,
    );
  });

  it('name no recording rule in the raw series namespace (tool_argument_*), which tools select by regex', () => {
    for (const rule of rules.filter((r) => r.record)) {
      expect(rule.record, rule.record).not.to.match(/^tool_argument_/);
    }
  });

  it('aggregate every call-level series in the alerts and the other rules, so that attribution labels cannot split them', () => {
    const split = new Set([
      'tool_argument:out_of_set_by_model:ratio_rate1h',
      'tool_argument:out_of_set_by_tool_definition:ratio_rate1h',
    ]);
    for (const rule of rules) {
      const name = rule.alert ?? rule.record!;
      if (split.has(name)) continue;
      for (const labels of groupings(rule.expr)) {
        expect(
          labels.filter((l) => attribution.includes(l)),
          name,
        ).to.deep.equal([]);
      }
      // Every selector sits inside an aggregation: no bare series reaches the
      // result with its labels (a `without` would keep the attribution).
      expect(rule.expr, name).not.to.match(/\bwithout\s*\(/);
      const aggregations = (rule.expr.match(/\b(?:sum|max|min|count|avg) by \(/g) ?? []).length;
      const selectors = (rule.expr.match(/\btool_argument_\w+(?=\{|\[|\s|\))/g) ?? []).length;
      expect(aggregations, `${name}: one aggregation per selector`).to.equal(selectors);
    }
  });
});

describe('pipeline: otel-collector.yaml', function () {
  // Only reuses the collector build (CI builds it first with
  // deploy/collector/build.sh); validation itself takes well under a second.
  this.timeout(120_000);

  it('validates with the argcheck collector (deploy/collector/validate.sh --reuse)', () => {
    const result = run('bash', ['deploy/collector/validate.sh', '--reuse']);
    if (result.status === 3) {
      throw new Error(
        `the argcheck collector is not built (or is stale): run \`bash deploy/collector/build.sh\` (minutes the first time), then the tests.\n${result.stderr}`,
      );
    }
    expect(result.status, result.output).to.equal(0);
    expect(result.stdout).to.match(/OK: otel-collector\.yaml \(gateway and agent tiers\) is valid/);
  });
});
