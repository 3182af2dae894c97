import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ATTRIBUTION_LABELS,
  BUILTIN_RANGE_VARIABLES,
  CONTRACT_METRICS,
  CONTRACT_SERIES,
  SELECTABLE_METRIC_NAMES,
  dashboardQueries,
  loadDashboard,
  metricNamesIn,
  variablesIn,
  type DashboardPanel,
} from './dashboard-queries.js';
import { REPO_ROOT, requireCommand, run } from './tools.js';

// deploy/grafana/argcheck-dashboard.json is hand-written; this is what keeps it
// honest: structure Grafana needs, only contract series, every variable
// defined, and every panel query returning data from contract-shaped series.

const dashboard = loadDashboard();
const panels = dashboard.panels;
const queries = dashboardQueries();

function panelByTitle(pattern: RegExp): DashboardPanel {
  const found = panels.filter((p) => pattern.test(p.title));
  expect(found, `exactly one panel titled ${String(pattern)}`).to.have.length(1);
  return found[0]!;
}

function exprsOf(panel: DashboardPanel): string[] {
  return (panel.targets ?? []).map((t) => t.expr);
}

describe('pipeline: Grafana dashboard', () => {
  it('is a current-schema dashboard with a stable uid and a title', () => {
    expect(dashboard.schemaVersion).to.be.at.least(39);
    expect(dashboard.uid).to.match(/^[\w-]{1,40}$/);
    expect(dashboard.title).to.be.a('string').and.not.be.empty;
  });

  describe('variables', () => {
    const byName = new Map(dashboard.templating.list.map((v) => [v.name, v]));

    it('has a Prometheus datasource variable', () => {
      const ds = byName.get('datasource');
      expect(ds?.type).to.equal('datasource');
      expect(ds?.query).to.equal('prometheus');
    });

    for (const [name, label] of [
      ['tool', 'tool'],
      ['argument', 'argument'],
    ] as const) {
      it(`has a ${name} variable from label_values(..., ${label}) on the datasource variable`, () => {
        const v = byName.get(name);
        expect(v?.type).to.equal('query');
        expect(v?.datasource).to.deep.equal({ type: 'prometheus', uid: '${datasource}' });
        const query =
          typeof v?.query === 'string' ? v.query : (v?.query as { query?: string }).query;
        expect(query).to.match(new RegExp(`^label_values\\((.+), ${label}\\)$`));
        expect(v?.definition).to.equal(query);
        for (const metric of metricNamesIn(query!.replace(/^label_values\(|, \w+\)$/g, ''))) {
          expect(SELECTABLE_METRIC_NAMES.has(metric), metric).to.be.true;
        }
        // "All" must be a regex the queries' =~ matchers accept.
        expect(v?.includeAll).to.be.true;
        expect(v?.allValue).to.equal('.*');
      });
    }

    it('the argument variable depends on the selected tool', () => {
      expect(byName.get('argument')?.definition).to.include('tool=~"$tool"');
    });
  });

  describe('panels', () => {
    it('have unique numeric ids', () => {
      const ids = panels.map((p) => p.id);
      expect(ids.every((id) => Number.isInteger(id) && id > 0)).to.be.true;
      expect(new Set(ids).size).to.equal(ids.length);
    });

    it('have a gridPos inside the 24-column grid, without overlaps', () => {
      for (const p of panels) {
        const g = p.gridPos;
        expect(g, p.title).to.include.all.keys('x', 'y', 'w', 'h');
        expect(g!.x >= 0 && g!.y >= 0 && g!.w > 0 && g!.h > 0, p.title).to.be.true;
        expect(g!.x + g!.w, p.title).to.be.at.most(24);
      }
      for (const [i, a] of panels.entries()) {
        for (const b of panels.slice(i + 1)) {
          const ga = a.gridPos!;
          const gb = b.gridPos!;
          const overlap =
            ga.x < gb.x + gb.w && gb.x < ga.x + ga.w && ga.y < gb.y + gb.h && gb.y < ga.y + ga.h;
          expect(overlap, `${a.title} overlaps ${b.title}`).to.be.false;
        }
      }
    });

    it('use the datasource variable, on the panel and on every target', () => {
      for (const p of panels) {
        expect(p.datasource, p.title).to.deep.equal({ type: 'prometheus', uid: '${datasource}' });
        for (const t of p.targets ?? []) {
          expect(t.datasource, `${p.title} ${t.refId}`).to.deep.equal({
            type: 'prometheus',
            uid: '${datasource}',
          });
        }
      }
    });

    it('have titles, descriptions and targets with unique refIds and an expr', () => {
      for (const p of panels) {
        expect(p.title, `panel ${p.id}`).to.be.a('string').and.not.be.empty;
        expect(p.description, p.title).to.be.a('string').and.not.be.empty;
        const targets = p.targets ?? [];
        expect(targets, p.title).to.not.be.empty;
        expect(new Set(targets.map((t) => t.refId)).size, p.title).to.equal(targets.length);
        for (const t of targets) expect(t.expr.trim(), `${p.title} ${t.refId}`).to.not.be.empty;
      }
    });

    it('query only argcheck contract series', () => {
      for (const q of queries) {
        const names = metricNamesIn(q.rawExpr);
        expect(names, `${q.title} ${q.refId}`).to.not.be.empty;
        for (const name of names) {
          expect(SELECTABLE_METRIC_NAMES.has(name), `${q.title} ${q.refId}: ${name}`).to.be.true;
        }
      }
    });

    it('filter and group only by labels the series carry', () => {
      for (const q of queries) {
        const series = CONTRACT_SERIES as Record<string, readonly string[]>;
        const labels = new Set<string>(
          metricNamesIn(q.rawExpr).flatMap((name) => {
            const own = series[name] ?? series[name.replace(/_(bucket|sum|count)$/, '')] ?? [];
            // Call-level series (a tool label) also carry the attribution labels.
            return own.includes('tool') ? [...own, ...ATTRIBUTION_LABELS] : [...own];
          }),
        );
        if (/_bucket\b/.test(q.rawExpr)) labels.add('le');
        const used = [
          ...[...q.rawExpr.matchAll(/\b(\w+)\s*(?:=~|!~|!=|=)\s*"/g)].map((m) => m[1]!),
          ...[...q.rawExpr.matchAll(/\b(?:by|without|on|ignoring)\s*\(([^)]*)\)/g)].flatMap((m) =>
            m[1]!.split(',').map((s) => s.trim()),
          ),
        ].filter((l) => l !== '');
        for (const label of used) expect(labels.has(label), `${q.title}: ${label}`).to.be.true;
      }
    });

    it('use only defined variables', () => {
      const defined = new Set<string>([
        ...dashboard.templating.list.map((v) => v.name),
        ...BUILTIN_RANGE_VARIABLES,
      ]);
      for (const p of panels) {
        for (const expr of exprsOf(p)) {
          for (const name of variablesIn(expr)) {
            expect(defined.has(name), `${p.title}: $${name}`).to.be.true;
          }
        }
      }
    });

    it('use every argcheck series somewhere (a panel or an annotation)', () => {
      const annotations = (
        (dashboard.annotations as { list: { expr?: string }[] } | undefined)?.list ?? []
      ).flatMap((a) => (a.expr === undefined ? [] : metricNamesIn(a.expr)));
      const used = new Set([...queries.flatMap((q) => metricNamesIn(q.rawExpr)), ...annotations]);
      for (const metric of CONTRACT_METRICS) {
        const forms = [metric, `${metric}_bucket`, `${metric}_sum`, `${metric}_count`];
        expect(
          forms.some((f) => used.has(f)),
          metric,
        ).to.be.true;
      }
    });

    it('show the out-of-set rate raw and after normalisation, per tool and argument', () => {
      const exprs = exprsOf(panelByTitle(/raw vs after normalisation/i));
      expect(exprs.some((e) => e.includes('in_set="false"'))).to.be.true;
      expect(exprs.some((e) => e.includes('in_set_normalised="false"'))).to.be.true;
      for (const e of exprs) expect(e).to.include('sum by (tool, argument)');
    });

    it('stack the mismatch shapes', () => {
      const p = panelByTitle(/mismatch shapes/i);
      expect(exprsOf(p).join('\n')).to.match(/by \(shape\)/);
      const defaults = (
        p.fieldConfig as { defaults: { custom?: { stacking?: { mode?: string } } } }
      ).defaults;
      expect(defaults.custom?.stacking?.mode).to.equal('normal');
    });

    it('show check-unavailable by set and reason, value-set age and size, repairs and rewrites, checks per second', () => {
      expect(exprsOf(panelByTitle(/unavailable/i)).join()).to.match(/by \(set, reason\)/);
      expect(exprsOf(panelByTitle(/value-set age/i)).join()).to.include(
        'tool_argument_value_set_age_seconds',
      );
      expect(exprsOf(panelByTitle(/value-set size/i)).join()).to.include(
        'tool_argument_value_set_size',
      );
      const repairs = exprsOf(panelByTitle(/repairs and rewrites/i)).join();
      expect(repairs).to.include('tool_argument_repair_started_total');
      expect(repairs).to.include('tool_argument_rewritten_total');
      expect(exprsOf(panelByTitle(/checks per second/i)).join()).to.include(
        'rate(tool_argument_value_check_total',
      );
    });

    it('show the out-of-set rate per model and per tool definition side by side, and repair first-retry success', () => {
      const byModel = panelByTitle(/per model/i);
      const byDefinition = panelByTitle(/per tool definition/i);
      for (const e of exprsOf(byModel)) {
        expect(e).to.include('sum by (tool, argument, gen_ai_request_model)');
      }
      for (const e of exprsOf(byDefinition)) {
        expect(e).to.include('sum by (tool, argument, tool_definition)');
      }
      expect(byModel.gridPos?.y).to.equal(byDefinition.gridPos?.y);
      const repair = exprsOf(panelByTitle(/first-retry success/i)).join();
      expect(repair).to.include(
        'tool_argument_repair_outcome_total{tool=~"$tool", outcome="resolved"}',
      );
      expect(repair).to.match(/sum by \(tool\)/);
    });

    it('mark value-set changes as annotations', () => {
      const list = (dashboard.annotations as { list: { expr?: string; enable?: boolean }[] }).list;
      const changes = list.filter((a) => a.expr?.includes('tool_argument_value_set_change_total'));
      expect(changes).to.have.length(1);
      expect(changes[0]!.enable).to.equal(true);
    });

    it('show the tool calls seen by integration and coverage, and the share checked', () => {
      expect(exprsOf(panelByTitle(/tool calls seen/i)).join()).to.match(
        /sum by \(integration, coverage\) \(rate\(tool_argument_call_total/,
      );
      const share = exprsOf(panelByTitle(/share of tool calls checked/i)).join();
      expect(share).to.include('coverage="checked"');
      expect(share).to.match(/sum by \(integration\)/);
    });
  });

  describe('dashboardQueries()', () => {
    it('substitutes every variable, with .* for All', () => {
      expect(queries.length).to.be.at.least(panels.length);
      for (const q of queries) {
        expect(q.expr, q.title).not.to.include('$');
      }
      const raw = queries.find((q) => q.rawExpr.includes('$tool'))!;
      expect(raw.expr).to.include('tool=~".*"');
    });

    it('takes explicit variable values and a range interval', () => {
      const [first] = dashboardQueries({
        variables: { tool: 'refund_order', argument: 'reason_code' },
        rangeInterval: '2m',
      });
      expect(first!.expr).to.include('tool=~"refund_order"');
      expect(first!.expr).to.include('argument=~"reason_code"');
      expect(first!.expr).to.include('[2m]');
    });
  });

  describe('every panel query returns data from contract-shaped series (promtool)', function () {
    this.timeout(60_000);
    let dir: string | undefined;
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('evaluates each query at t=30m over 30 minutes of synthetic series', () => {
      requireCommand('promtool');
      dir = mkdtempSync(join(tmpdir(), 'argcheck-dashboard-'));
      const file = join(dir, 'dashboard.test.yml');
      // JSON is YAML: promtool reads it as a unit-test file.
      writeFileSync(file, JSON.stringify(promtoolTestFile(), null, 2));
      const result = run('promtool', ['test', 'rules', file]);
      expect(result.status, result.output).to.equal(0);
      expect(result.output).to.match(/SUCCESS/);
    });
  });
});

/**
 * One promtool unit test: two tools' worth of every contract series, and for
 * each dashboard query `absent(<query>)` expected to be empty (that is, the
 * query returns at least one sample). A control query proves that absent()
 * does report an empty query.
 */
function promtoolTestFile(): unknown {
  const series: { series: string; values: string }[] = [];
  const add = (name: string, labels: Record<string, string>, values: string): void => {
    const body = Object.entries(labels)
      .map(([k, v]) => `${k}="${v}"`)
      .join(',');
    series.push({ series: `${name}{${body}}`, values });
  };
  const calls = [
    { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' },
    { tool: 'create_ticket', argument: 'component_id', set: 'catalog.components' },
  ];
  for (const c of calls) {
    add(
      'tool_argument_value_check_total',
      { ...c, in_set: 'true', in_set_normalised: 'true' },
      '0+950x30',
    );
    add(
      'tool_argument_value_check_total',
      { ...c, in_set: 'false', in_set_normalised: 'true' },
      '0+17x30',
    );
    add(
      'tool_argument_value_check_total',
      { ...c, in_set: 'false', in_set_normalised: 'false' },
      '0+33x30',
    );
    for (const shape of ['case', 'format', 'near_miss', 'invented']) {
      add('tool_argument_mismatch_total', { ...c, shape }, '0+5x30');
    }
    add('tool_argument_check_unavailable_total', { ...c, reason: 'fetch_failed' }, '0+2x30');
    add('tool_argument_repair_started_total', { tool: c.tool }, '0+3x30');
    add('tool_argument_rewritten_total', c, '0+4x30');
    add('tool_argument_repair_outcome_total', { ...c, outcome: 'resolved' }, '0+2x30');
    add('tool_argument_repair_outcome_total', { ...c, outcome: 'repeated' }, '0+1x30');
    add(
      'tool_argument_call_total',
      { tool: c.tool, integration: 'mcp', coverage: 'checked' },
      '0+900x30',
    );
    add(
      'tool_argument_call_total',
      { tool: c.tool, integration: 'mcp', coverage: 'none' },
      '0+100x30',
    );
    const set = { set: c.set, source: 'http' };
    add('tool_argument_value_set_fetch_total', { ...set, outcome: 'success' }, '0+1x30');
    add('tool_argument_value_set_age_seconds', set, '0+60x4 0+60x4 0+60x4 0+60x4 0+60x4 0+60x4 0');
    add('tool_argument_value_set_size', set, '6x30');
    for (const [le, step] of [
      ['0.1', 1],
      ['1', 2],
      ['+Inf', 2],
    ] as const) {
      add(
        'tool_argument_value_set_fetch_duration_seconds_bucket',
        { ...set, outcome: 'success', le },
        `0+${step}x30`,
      );
    }
    add(
      'tool_argument_value_set_fetch_duration_seconds_sum',
      { ...set, outcome: 'success' },
      '0+0.3x30',
    );
    add(
      'tool_argument_value_set_fetch_duration_seconds_count',
      { ...set, outcome: 'success' },
      '0+2x30',
    );
  }
  return {
    rule_files: [join(REPO_ROOT, 'deploy/prometheus/rules/argcheck.rules.yml')],
    evaluation_interval: '1m',
    tests: [
      {
        name: 'dashboard queries return data',
        interval: '1m',
        input_series: series,
        promql_expr_test: [
          {
            expr: 'absent(tool_argument_no_such_series)',
            eval_time: '30m',
            exp_samples: [{ labels: '{}', value: 1 }],
          },
          ...dashboardQueries({ rangeInterval: '5m' }).map((q) => ({
            expr: `absent(${q.expr})`,
            eval_time: '30m',
            exp_samples: [],
          })),
        ],
      },
    ],
  };
}
