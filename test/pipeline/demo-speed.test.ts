import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  DEMO_SPEED,
  demoSpeedAlertmanager,
  demoSpeedRules,
  durationMs,
  formatDuration,
} from '../../deploy/stack/src/demo-speed.js';
import { REPO_ROOT, requireCommand, run } from './tools.js';

// The demo-speed copies `npm run stack` loads, generated from the shipped
// rules and Alertmanager configuration: every duration divided by the factor,
// nothing else changed, and still valid for promtool and amtool.

const RULES = readFileSync(join(REPO_ROOT, 'deploy/prometheus/rules/argcheck.rules.yml'), 'utf8');
const ALERTMANAGER = readFileSync(join(REPO_ROOT, 'deploy/alertmanager/alertmanager.yml'), 'utf8');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const rulesOf = (text: string): Rule[] =>
  (parse(text) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

/** `expr` with each range selector's duration divided by `speed`, computed independently. */
const scaledExpr = (expr: string, speed: number): string =>
  expr.replace(/\[(\w+)\]/g, (_m, d: string) => `[${formatDuration(durationMs(d) / speed)}]`);

describe('demo speed', () => {
  it('reads and writes Prometheus durations', () => {
    expect(['1h', '90s', '1h30m', '500ms', '2d'].map(durationMs)).to.deep.equal([
      3_600_000, 90_000, 5_400_000, 500, 172_800_000,
    ]);
    expect([12_000, 100, 1_500, 0.2].map(formatDuration)).to.deep.equal([
      '12s',
      '100ms',
      '1500ms',
      '1ms',
    ]);
    expect(() => durationMs('1 hour')).to.throw(/not a Prometheus duration/);
  });

  describe('the rules', () => {
    const shipped = rulesOf(RULES);
    const demo = rulesOf(demoSpeedRules(RULES));

    it('divide every range selector and every for: by 300, and change nothing else', () => {
      expect(DEMO_SPEED).to.equal(300);
      expect(demo.map((r) => r.alert ?? r.record)).to.deep.equal(
        shipped.map((r) => r.alert ?? r.record),
      );
      for (const [i, rule] of shipped.entries()) {
        const expected: Rule = { ...rule, expr: scaledExpr(rule.expr, 300) };
        if (rule.for !== undefined) expected.for = formatDuration(durationMs(rule.for) / 300);
        if (rule.labels) expected.labels = { ...rule.labels, speed: 'demo-x300' };
        expect(demo[i], rule.alert ?? rule.record).to.deep.equal(expected);
      }
      const byName = new Map(demo.map((r) => [r.alert ?? r.record, r]));
      expect(byName.get('ToolArgumentInventionRate')?.for).to.equal('24s');
      expect(byName.get('ToolArgumentCheckUnavailable')?.for).to.equal('3s');
      expect(byName.get('ToolArgumentCheckUnavailable')?.expr).to.include('[2s]');
    });

    it('say at the top that they are generated and not for production', () => {
      expect(demoSpeedRules(RULES).split('\n')[0]).to.match(/^# GENERATED at demo speed \(x300\)/);
    });

    it('take another factor', () => {
      const rules = rulesOf(demoSpeedRules(RULES, 60));
      expect(rules.find((r) => r.alert === 'ToolArgumentInventionRate')?.for).to.equal('120s');
    });

    it('pass promtool check rules', () => {
      requireCommand('promtool');
      const dir = mkdtempSync(join(tmpdir(), 'argcheck-demo-speed-'));
      try {
        const file = join(dir, 'argcheck.rules.yml');
        writeFileSync(file, demoSpeedRules(RULES));
        const result = run('promtool', ['check', 'rules', file]);
        expect(result.status, result.output).to.equal(0);
        // As many rules as the shipped file has: none lost in the copy.
        const shipped = (RULES.match(/^\s*- (?:record|alert): /gm) ?? []).length;
        expect(shipped).to.equal(13);
        expect(result.output).to.include(`SUCCESS: ${shipped} rules found`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuse a rules file with an alert that has no for:', () => {
      const withoutFor = RULES.replace(/^\s+for: 2h\n/m, '');
      expect(() => demoSpeedRules(withoutFor)).to.throw(/one for: per alert/);
    });
  });

  describe('the Alertmanager configuration', () => {
    const demo = demoSpeedAlertmanager(ALERTMANAGER);

    it('divides the argcheck route’s timers by 300 and keeps the rest', () => {
      const shipped = parse(ALERTMANAGER) as { route: { routes: Record<string, unknown>[] } };
      const parsed = parse(demo) as typeof shipped;
      expect(parsed.route.routes[0]).to.deep.equal({
        ...shipped.route.routes[0],
        group_wait: '100ms',
        group_interval: '1s',
        repeat_interval: '48s',
      });
      expect({ ...parsed, route: undefined }).to.deep.equal({ ...shipped, route: undefined });
    });

    it('passes amtool check-config', () => {
      requireCommand('amtool');
      const dir = mkdtempSync(join(tmpdir(), 'argcheck-demo-speed-'));
      try {
        const file = join(dir, 'alertmanager.yml');
        writeFileSync(file, demo);
        const result = run('amtool', ['check-config', file]);
        expect(result.status, result.output).to.equal(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
