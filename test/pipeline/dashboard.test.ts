import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ATTRIBUTED_SERIES,
  ATTRIBUTION_LABELS,
  BUILTIN_RANGE_VARIABLES,
  CONTRACT_METRICS,
  SELECTABLE_METRIC_NAMES,
  annotationQueries,
  dashboardQueries,
  labelsAllowedOn,
  loadDashboard,
  metricNamesIn,
  variablesIn,
  type DashboardPanel,
  type PanelQuery,
} from './dashboard-queries.js';
import { REPO_ROOT, requireCommand, run } from './tools.js';

// deploy/grafana/argcheck-dashboard.json is hand-written; this is what keeps it
// honest: structure Grafana needs, only contract series, every variable
// defined, and every panel query returning data from contract-shaped series.

const dashboard = loadDashboard();
const panels = dashboard.panels;
const queries = dashboardQueries();
const annotations = annotationQueries();
/** Panel queries and annotation queries: both run against the same series. */
const allQueries = [...queries, ...annotations];

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
      for (const q of allQueries) {
        const names = metricNamesIn(q.rawExpr);
        expect(names, `${q.title} ${q.refId}`).to.not.be.empty;
        for (const name of names) {
          expect(SELECTABLE_METRIC_NAMES.has(name), `${q.title} ${q.refId}: ${name}`).to.be.true;
        }
      }
    });

    it('filter and group only by labels the series carry (attribution only on call-level series)', () => {
      for (const q of allQueries) {
        const labels = new Set<string>(metricNamesIn(q.rawExpr).flatMap(labelsAllowedOn));
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
      for (const a of annotations) {
        for (const name of variablesIn(a.rawExpr)) {
          expect(defined.has(name), `annotation ${a.title}: $${name}`).to.be.true;
        }
      }
    });

    it('use every argcheck series somewhere', () => {
      const used = new Set(allQueries.flatMap((q) => metricNamesIn(q.rawExpr)));
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

    it('show the out-of-set ratio by model and by tool definition side by side, per tool, argument and set', () => {
      const byModel = panelByTitle(/out-of-set ratio by model/i);
      const byDefinition = panelByTitle(/out-of-set ratio by tool definition/i);
      for (const [panel, label] of [
        [byModel, 'gen_ai_request_model'],
        [byDefinition, 'tool_definition'],
      ] as const) {
        const [expr, ...rest] = exprsOf(panel);
        expect(rest, panel.title).to.be.empty;
        // Numerator and denominator grouped the same way: over instances and
        // every other attribution label.
        const groupings = [...expr!.matchAll(/sum by \(([^)]*)\)/g)].map((m) => m[1]);
        expect(groupings, panel.title).to.deep.equal([
          `tool, argument, set, ${label}`,
          `tool, argument, set, ${label}`,
        ]);
        expect(expr, panel.title).to.include('in_set="false"');
        expect(expr, panel.title).to.match(/\) > 0\)$/);
        expect(panel.targets![0]!.legendFormat, panel.title).to.include(`{{${label}}}`);
      }
      // Side by side: same row, same height, next to each other.
      const [a, b] = [byModel.gridPos!, byDefinition.gridPos!];
      expect(a.y).to.equal(b.y);
      expect(a.h).to.equal(b.h);
      expect(a.x + a.w).to.equal(b.x);
    });

    it('show repair first-retry success per tool as resolved over every outcome', () => {
      const [expr, ...rest] = exprsOf(panelByTitle(/first-retry success/i));
      expect(rest).to.be.empty;
      const [numerator, denominator] = expr!.split(/\n\s*\/\n/);
      expect(numerator).to.match(
        /^sum by \(tool\) \(rate\(tool_argument_repair_outcome_total\{[^}]*outcome="resolved"[^}]*\}/,
      );
      expect(denominator).to.match(
        /^\(sum by \(tool\) \(rate\(tool_argument_repair_outcome_total\{/,
      );
      expect(denominator).not.to.match(/outcome\s*(=|!=|=~|!~)/);
      expect(exprsOf(panelByTitle(/^repair outcomes$/i)).join()).to.match(/sum by \(outcome\)/);
    });

    it('mark value-set changes as annotations, one for added and one for removed members', () => {
      expect(annotations.map((a) => a.title)).to.deep.equal([
        'Value-set members added',
        'Value-set members removed',
      ]);
      const list = dashboard.annotations!.list;
      for (const change of ['added', 'removed']) {
        const a = list.find((x) => x.name === `Value-set members ${change}`)!;
        expect(a.datasource).to.deep.equal({ type: 'prometheus', uid: '${datasource}' });
        expect(a.enable).to.equal(true);
        expect(a.expr).to.equal(
          `sum by (set, source) (increase(tool_argument_value_set_change_total{change="${change}"}[$__interval])) > 0`,
        );
        expect(a.titleFormat).to.include('{{set}}');
        expect(a.tagKeys).to.equal('set,source');
      }
      // Grafana's own annotation stays.
      expect(list.filter((x) => x.builtIn === 1)).to.have.length(1);
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

  describe('the attribution labels', () => {
    it('are allowed on the call-level series only', () => {
      expect([...ATTRIBUTED_SERIES].sort()).to.deep.equal(
        [
          'tool_argument_value_check_total',
          'tool_argument_mismatch_total',
          'tool_argument_check_unavailable_total',
          'tool_argument_repair_started_total',
          'tool_argument_rewritten_total',
          'tool_argument_repair_outcome_total',
          'tool_argument_call_total',
        ].sort(),
      );
      expect(labelsAllowedOn('tool_argument_value_check_total')).to.include.members([
        ...ATTRIBUTION_LABELS,
      ]);
      expect(labelsAllowedOn('tool_argument_value_set_change_total')).to.deep.equal([
        'set',
        'source',
        'change',
      ]);
      expect(
        labelsAllowedOn('tool_argument_value_set_fetch_duration_seconds_bucket'),
      ).to.deep.equal(['set', 'source', 'outcome', 'le']);
      expect(labelsAllowedOn('app_queue_depth')).to.deep.equal([]);
    });
  });

  describe('every panel query returns data from contract-shaped series (promtool)', function () {
    this.timeout(60_000);
    let dir: string | undefined;
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('evaluates each panel and annotation query at t=30m over 30 minutes of synthetic series, and the attribution and repair panels to their exact values', () => {
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

const M1 = { gen_ai_request_model: 'gpt-4.1', gen_ai_provider_name: 'openai' };
const M2 = { gen_ai_request_model: 'claude-sonnet-4', gen_ai_provider_name: 'anthropic' };
const D1 = { tool_definition: '0a1b2c3d4e5f' };
const D2 = { tool_definition: '9f8e7d6c5b4a' };

/** The one query of the panel titled `title`. */
function panelQuery(title: string): PanelQuery {
  const found = dashboardQueries({ rangeInterval: '5m' }).filter((q) => q.title === title);
  expect(found, title).to.have.length(1);
  return found[0]!;
}

/**
 * One promtool unit test: two tools' worth of every contract series, and for
 * each dashboard query `absent(<query>)` expected to be empty (that is, the
 * query returns at least one sample). A control query proves that absent()
 * does report an empty query. refund_order's checks are split over two
 * models and two tool definitions (create_ticket's carry no attribution, as
 * when the instrumentation knew neither), and the attribution and repair
 * panels are held to their exact values.
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
  const inSet = { in_set: 'true', in_set_normalised: 'true' };
  const formatted = { in_set: 'false', in_set_normalised: 'true' };
  const outOfSet = { in_set: 'false', in_set_normalised: 'false' };
  // refund_order, checks a minute per model and definition (in set, out of set):
  //   M1 D1: 475, 10 + 15    M1 D2: 475, 25    -> M1 50 / 1000 = 0.05
  //   M2 D1: 450, 50         M2 D2: 350, 150   -> M2 200 / 1000 = 0.2
  //   D1: 75 / 1000 = 0.075, D2: 175 / 1000 = 0.175
  const [refund, ticket] = calls as [(typeof calls)[0], (typeof calls)[0]];
  for (const [labels, count] of [
    [{ ...M1, ...D1, ...inSet }, 475],
    [{ ...M1, ...D1, ...formatted }, 10],
    [{ ...M1, ...D1, ...outOfSet }, 15],
    [{ ...M1, ...D2, ...inSet }, 475],
    [{ ...M1, ...D2, ...outOfSet }, 25],
    [{ ...M2, ...D1, ...inSet }, 450],
    [{ ...M2, ...D1, ...outOfSet }, 50],
    [{ ...M2, ...D2, ...inSet }, 350],
    [{ ...M2, ...D2, ...outOfSet }, 150],
  ] as const) {
    add('tool_argument_value_check_total', { ...refund, ...labels }, `0+${count}x30`);
  }
  // create_ticket: 950 in set, 17 + 33 out of set a minute, no attribution.
  add('tool_argument_value_check_total', { ...ticket, ...inSet }, '0+950x30');
  add('tool_argument_value_check_total', { ...ticket, ...formatted }, '0+17x30');
  add('tool_argument_value_check_total', { ...ticket, ...outOfSet }, '0+33x30');
  // Repair outcomes a minute: refund_order 4 + 2 resolved (two models), 2
  // repeated, 2 abandoned -> 0.6; create_ticket 3 resolved, 1 repeated -> 0.75.
  for (const [c, labels, outcome, count] of [
    [refund, M1, 'resolved', 4],
    [refund, M2, 'resolved', 2],
    [refund, M2, 'repeated', 2],
    [refund, {}, 'abandoned', 2],
    [ticket, {}, 'resolved', 3],
    [ticket, {}, 'repeated', 1],
    [ticket, {}, 'abandoned', 0],
  ] as const) {
    add('tool_argument_repair_outcome_total', { ...c, ...labels, outcome }, `0+${count}x30`);
  }
  // A refresh of refund_order's set at t=27m added two members, one at t=28m
  // removed one; create_ticket's set never changed.
  const refundSet = { set: refund.set, source: 'http' };
  add('tool_argument_value_set_change_total', { ...refundSet, change: 'added' }, '0x26 2x4');
  add('tool_argument_value_set_change_total', { ...refundSet, change: 'removed' }, '0x27 1x3');
  for (const change of ['added', 'removed']) {
    add(
      'tool_argument_value_set_change_total',
      { set: ticket.set, source: 'http', change },
      '0x30',
    );
  }
  for (const c of calls) {
    for (const shape of ['case', 'format', 'near_miss', 'invented']) {
      add('tool_argument_mismatch_total', { ...c, shape }, '0+5x30');
    }
    add('tool_argument_check_unavailable_total', { ...c, reason: 'fetch_failed' }, '0+2x30');
    add('tool_argument_repair_started_total', { tool: c.tool }, '0+3x30');
    add('tool_argument_rewritten_total', c, '0+4x30');
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
          ...[
            ...dashboardQueries({ rangeInterval: '5m' }),
            ...annotationQueries({ rangeInterval: '5m' }),
          ].map((q) => ({
            expr: `absent(${q.expr})`,
            eval_time: '30m',
            exp_samples: [],
          })),
          ...exactValues(calls),
        ],
      },
    ],
  };
}

/** What the attribution, repair and set-change queries return from the series above. */
function exactValues(calls: { tool: string; argument: string; set: string }[]): unknown[] {
  const [refund, ticket] = calls as [(typeof calls)[0], (typeof calls)[0]];
  const labels = (o: Record<string, string>): string =>
    `{${Object.entries(o)
      .map(([k, v]) => `${k}="${v}"`)
      .join(',')}}`;
  // To six decimal places: promtool compares floats exactly.
  const at30m = (expr: string, samples: [Record<string, string>, number][]) => ({
    expr: `round((${expr}) * 1e6)`,
    eval_time: '30m',
    exp_samples: samples.map(([l, value]) => ({ labels: labels(l), value: value * 1e6 })),
  });
  const q = (title: string) => panelQuery(title).expr;
  const annotation = (name: string) =>
    annotationQueries({ rangeInterval: '5m' }).find((x) => x.title === name)!.expr;
  const refundSet = { set: refund.set, source: 'http' };
  const { gen_ai_request_model: m1 } = M1;
  const { gen_ai_request_model: m2 } = M2;
  const expected = [
    at30m(q('Out-of-set ratio by model'), [
      [{ ...refund, gen_ai_request_model: m1 }, 0.05],
      [{ ...refund, gen_ai_request_model: m2 }, 0.2],
      [ticket, 0.05],
    ]),
    at30m(q('Out-of-set ratio by tool definition'), [
      [{ ...refund, ...D1 }, 0.075],
      [{ ...refund, ...D2 }, 0.175],
      [ticket, 0.05],
    ]),
    at30m(q('Repair first-retry success'), [
      [{ tool: refund.tool }, 0.6],
      [{ tool: ticket.tool }, 0.75],
    ]),
    // refund_order's set only: the counters start at zero, so increase() is
    // not extrapolated past the zero and counts the members exactly.
    at30m(annotation('Value-set members added'), [[refundSet, 2]]),
    at30m(annotation('Value-set members removed'), [[refundSet, 1]]),
  ];
  return expected;
}
