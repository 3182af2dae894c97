/**
 * Reads the Grafana dashboard (deploy/grafana/argcheck-dashboard.json) and
 * returns every panel query as plain PromQL, with the dashboard's variables
 * substituted, so that its queries can run against a Prometheus: promtool in
 * the dashboard's structural test, the real pipeline in the end-to-end test,
 * and the stack's Prometheus for the dashboard's pictures.
 *
 *   import { dashboardQueries } from './dashboard-queries.js';
 *   for (const q of dashboardQueries()) await prometheus.query(q.expr);
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './programs.js';

export const DASHBOARD_PATH = join(REPO_ROOT, 'deploy/grafana/argcheck-dashboard.json');

/**
 * The argcheck series as Prometheus names them (collector Prometheus exporter,
 * translation_strategy UnderscoreEscapingWithSuffixes), with the labels every
 * series of the name carries. docs/telemetry.md is the source; the histogram's
 * Prometheus series carry the _bucket, _sum and _count suffixes. The
 * call-level series (`ATTRIBUTED_SERIES`) may also carry attribution labels.
 */
export const CONTRACT_SERIES = {
  tool_argument_value_check_total: ['tool', 'argument', 'set', 'in_set', 'in_set_normalised'],
  tool_argument_mismatch_total: ['tool', 'argument', 'set', 'shape'],
  tool_argument_check_unavailable_total: ['tool', 'argument', 'set', 'reason'],
  tool_argument_repair_started_total: ['tool'],
  tool_argument_rewritten_total: ['tool', 'argument', 'set'],
  tool_argument_repair_outcome_total: ['tool', 'argument', 'set', 'outcome'],
  tool_argument_call_total: ['tool', 'integration', 'coverage'],
  tool_argument_value_set_fetch_total: ['set', 'source', 'outcome'],
  tool_argument_value_set_fetch_duration_seconds: ['set', 'source', 'outcome'],
  tool_argument_value_set_age_seconds: ['set', 'source'],
  tool_argument_value_set_size: ['set', 'source'],
  tool_argument_value_set_change_total: ['set', 'source', 'change'],
} as const satisfies Record<string, readonly string[]>;

export type ContractMetric = keyof typeof CONTRACT_SERIES;
export const CONTRACT_METRICS = Object.keys(CONTRACT_SERIES) as ContractMetric[];

/**
 * The attribution labels (docs/decisions/0027-attribution.md) as Prometheus
 * names them: the exporter writes `gen_ai.request.model` as
 * `gen_ai_request_model`. Each is on a call-level series only when the
 * instrumentation knew it, so a series has any subset of them.
 */
export const ATTRIBUTION_LABELS = [
  'gen_ai_request_model',
  'gen_ai_provider_name',
  'gen_ai_agent_name',
  'gen_ai_prompt_version',
  'tool_definition',
] as const;

/** The call-level series (keyed by `tool`): those that may carry `ATTRIBUTION_LABELS`. */
export const ATTRIBUTED_SERIES: ReadonlySet<ContractMetric> = new Set(
  CONTRACT_METRICS.filter((name) => (CONTRACT_SERIES[name] as readonly string[])[0] === 'tool'),
);

/**
 * Every label a series of `name` (a contract name, or a histogram's
 * `_bucket`/`_sum`/`_count`) may carry besides `job` and `instance`: its
 * contract labels, `le` on buckets, and the attribution labels on call-level
 * series. Empty for a name outside the contract.
 */
export function labelsAllowedOn(name: string): string[] {
  const series = CONTRACT_SERIES as Record<string, readonly string[]>;
  const base = series[name] !== undefined ? name : name.replace(/_(bucket|sum|count)$/, '');
  const contract = series[base];
  if (contract === undefined) return [];
  return [
    ...contract,
    ...(name.endsWith('_bucket') && base !== name ? ['le'] : []),
    ...(ATTRIBUTED_SERIES.has(base as ContractMetric) ? ATTRIBUTION_LABELS : []),
  ];
}
const HISTOGRAMS: readonly ContractMetric[] = ['tool_argument_value_set_fetch_duration_seconds'];

/** Every series name a query may select: the contract names plus histogram suffixes. */
export const SELECTABLE_METRIC_NAMES: ReadonlySet<string> = new Set(
  CONTRACT_METRICS.flatMap((name) =>
    HISTOGRAMS.includes(name) ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name],
  ),
);

export interface DashboardTarget {
  refId: string;
  expr: string;
  legendFormat?: string;
  datasource?: { type?: string; uid?: string };
  [key: string]: unknown;
}

export interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  description?: string;
  datasource?: { type?: string; uid?: string };
  gridPos?: { x: number; y: number; w: number; h: number };
  targets?: DashboardTarget[];
  [key: string]: unknown;
}

export interface DashboardVariable {
  name: string;
  type: string;
  query?: unknown;
  definition?: string;
  datasource?: { type?: string; uid?: string };
  allValue?: string;
  [key: string]: unknown;
}

/** A dashboard annotation: Grafana's built-in one, or a Prometheus query. */
export interface DashboardAnnotation {
  name: string;
  datasource?: { type?: string; uid?: string };
  builtIn?: number;
  enable?: boolean;
  expr?: string;
  step?: string;
  titleFormat?: string;
  textFormat?: string;
  tagKeys?: string;
  [key: string]: unknown;
}

export interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: DashboardPanel[];
  templating: { list: DashboardVariable[] };
  annotations?: { list: DashboardAnnotation[] };
  [key: string]: unknown;
}

export function loadDashboard(path: string = DASHBOARD_PATH): Dashboard {
  return JSON.parse(readFileSync(path, 'utf8')) as Dashboard;
}

export interface PanelQuery {
  panelId: number;
  title: string;
  refId: string;
  /** PromQL with every variable substituted. */
  expr: string;
  /** The expression as written in the dashboard. */
  rawExpr: string;
}

export interface QueryOptions {
  /**
   * Values for dashboard variables, by name. Unset template variables take
   * their "All" value (`.*`, a regex matching everything; the dashboard uses
   * them with `=~`).
   */
  variables?: Record<string, string>;
  /** Replaces $__rate_interval, $__interval and $__range; default `5m`. */
  rangeInterval?: string;
  dashboard?: Dashboard;
}

/** Variables Grafana itself defines that the dashboard's queries may use. */
export const BUILTIN_RANGE_VARIABLES = ['__rate_interval', '__interval', '__range'] as const;

/** `$name`, `${name}` and `${name:format}` references in a query. */
export function variablesIn(expr: string): string[] {
  const names = new Set<string>();
  for (const m of expr.matchAll(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g)) names.add((m[1] ?? m[2])!);
  return [...names];
}

export function substituteVariables(
  expr: string,
  values: Record<string, string>,
  rangeInterval = '5m',
): string {
  const lookup = (name: string): string => {
    if ((BUILTIN_RANGE_VARIABLES as readonly string[]).includes(name)) return rangeInterval;
    const value = values[name];
    if (value === undefined) throw new Error(`no value for dashboard variable $${name}`);
    return value;
  };
  return expr.replace(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g, (_m, braced?: string, bare?: string) =>
    lookup((braced ?? bare)!),
  );
}

function variableValues(dashboard: Dashboard, options: QueryOptions): Record<string, string> {
  const values: Record<string, string> = {};
  for (const v of dashboard.templating.list) {
    if (v.type === 'query' || v.type === 'custom') values[v.name] = v.allValue ?? '.*';
  }
  Object.assign(values, options.variables);
  return values;
}

/** Every query of every panel, variables substituted, in panel order. */
export function dashboardQueries(options: QueryOptions = {}): PanelQuery[] {
  const dashboard = options.dashboard ?? loadDashboard();
  const values = variableValues(dashboard, options);
  return dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      panelId: panel.id,
      title: panel.title,
      refId: target.refId,
      rawExpr: target.expr,
      expr: substituteVariables(target.expr, values, options.rangeInterval),
    })),
  );
}

/**
 * The dashboard's Prometheus annotation queries (Grafana's built-in
 * annotation has none), variables substituted, in the shape of panel queries:
 * `panelId` 0, the annotation's name as `title`, `refId` "annotation".
 */
export function annotationQueries(options: QueryOptions = {}): PanelQuery[] {
  const dashboard = options.dashboard ?? loadDashboard();
  const values = variableValues(dashboard, options);
  return (dashboard.annotations?.list ?? [])
    .filter((a) => a.datasource?.type === 'prometheus' && typeof a.expr === 'string')
    .map((a) => ({
      panelId: 0,
      title: a.name,
      refId: 'annotation',
      rawExpr: a.expr!,
      expr: substituteVariables(a.expr!, values, options.rangeInterval),
    }));
}

const PROMQL_KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'atan2',
  'inf',
  'nan',
]);

/**
 * The series names a PromQL expression selects. Good enough for the
 * dashboard's and the rules' expressions: strips strings, label matchers,
 * grouping clauses and range/duration brackets, then takes every identifier
 * that is not a function call or a keyword.
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/(?<![\w:.])[A-Za-z_:][\w:]*/g)) {
    const word = m[0];
    const after = stripped.slice(m.index + word.length).trimStart();
    if (after.startsWith('(')) continue; // a function call
    if (PROMQL_KEYWORDS.has(word.toLowerCase())) continue;
    names.add(word);
  }
  return [...names];
}
