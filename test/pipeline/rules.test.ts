import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, requireCommand, run } from './tools.js';

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
