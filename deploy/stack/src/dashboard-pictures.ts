/**
 * A picture of the Grafana dashboard, drawn from its own queries' results:
 * no Grafana server runs here, so each panel is rendered with Vega-Lite to
 * SVG, laid out on the dashboard's grid (24 columns), with its title, legend
 * format, unit, stacking and dashed thresholds.
 */
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { DashboardPanel } from './dashboard-queries.js';
import type { RangeSeries } from './prometheus-client.js';

/** The results of one panel's queries, by refId, over the picture's time range. */
export interface PanelData {
  panel: DashboardPanel;
  results: Record<string, RangeSeries[]>;
}

interface Row {
  t: number;
  v: number;
  s: string;
}

const GRID_COLUMN_PX = 52;
const GRID_ROW_PX = 24;

interface FieldDefaults {
  unit?: string;
  custom?: { stacking?: { mode?: string }; thresholdsStyle?: { mode?: string } };
  thresholds?: { steps?: { value: number | null; color: string }[] };
}

const defaultsOf = (panel: DashboardPanel): FieldDefaults =>
  (panel.fieldConfig as { defaults?: FieldDefaults } | undefined)?.defaults ?? {};

/** Grafana's `{{label}}` legend format, filled from a series' labels. */
export function legend(format: string | undefined, metric: Record<string, string>): string {
  if (!format) return JSON.stringify(metric);
  return format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, name: string) => metric[name] ?? '');
}

const AXIS: Record<string, { format: string; title: string }> = {
  percentunit: { format: '.0%', title: 'share of checks' },
  reqps: { format: '~s', title: 'per second' },
  s: { format: '~s', title: 'seconds' },
  short: { format: '~s', title: '' },
};

/**
 * The rows of one panel, times in seconds since `start`. Values that are not
 * numbers are gaps; series that stay at zero throughout (every series exists
 * from start-up) are left out, or the legends would list every reason and
 * outcome of every set.
 */
function rowsOf(data: PanelData, start: number): Row[] {
  const rows: Row[] = [];
  for (const target of data.panel.targets ?? []) {
    for (const series of data.results[target.refId] ?? []) {
      const s = legend(target.legendFormat, series.metric);
      const points = series.values
        .map(([t, value]) => ({ t: Math.round((t - start) * 10) / 10, v: Number(value), s }))
        .filter((row) => Number.isFinite(row.v));
      if (points.some((row) => row.v !== 0)) rows.push(...points);
    }
  }
  return rows;
}

/** A panel whose every series stayed at zero (or had no data). */
function emptyPanel(title: object, width: number, height: number): Record<string, unknown> {
  return {
    title,
    width,
    height,
    data: { values: [{ text: 'every series at zero during the run' }] },
    mark: { type: 'text', fontSize: 12, color: '#888' },
    encoding: { text: { field: 'text', type: 'nominal' } },
  };
}

function panelSpec(data: PanelData, start: number, span: number): Record<string, unknown> {
  const { panel } = data;
  const defaults = defaultsOf(panel);
  const axis = AXIS[defaults.unit ?? 'short'] ?? AXIS.short!;
  const width = (panel.gridPos?.w ?? 12) * GRID_COLUMN_PX - 40;
  const height = (panel.gridPos?.h ?? 8) * GRID_ROW_PX - 70;
  const rows = rowsOf(data, start);
  const title = { text: panel.title, anchor: 'start', fontSize: 13 };
  if (rows.length === 0) return emptyPanel(title, width, height);
  const stacked = defaults.custom?.stacking?.mode === 'normal';
  const color = {
    field: 's',
    type: 'nominal',
    title: null,
    legend: {
      orient: 'bottom',
      columns: 2,
      labelLimit: width / 2 - 20,
      symbolType: stacked ? 'square' : 'stroke',
    },
  };
  if (panel.type === 'bargauge') {
    // A bar gauge shows each series' last value.
    const last = new Map<string, Row>();
    for (const row of rows) if ((last.get(row.s)?.t ?? -Infinity) <= row.t) last.set(row.s, row);
    return {
      title,
      width,
      height,
      data: { values: [...last.values()] },
      mark: { type: 'bar' },
      encoding: {
        y: { field: 's', type: 'nominal', title: null, axis: { labelLimit: width / 2 } },
        x: {
          field: 'v',
          type: 'quantitative',
          title: axis.title,
          axis: { format: axis.format === '.0%' ? '.1%' : axis.format, tickCount: 4 },
        },
        color: { ...color, legend: null },
      },
    };
  }
  const layers: Record<string, unknown>[] = [
    {
      mark: stacked ? { type: 'area', opacity: 0.8 } : { type: 'line', strokeWidth: 1.5 },
      encoding: {
        x: {
          field: 't',
          type: 'quantitative',
          title: 'seconds since the demo started',
          scale: { domain: [0, span] },
        },
        y: {
          field: 'v',
          type: 'quantitative',
          title: axis.title,
          axis: { format: axis.format },
          ...(stacked ? { stack: 'zero' } : {}),
        },
        color,
      },
    },
  ];
  const dashed = defaults.custom?.thresholdsStyle?.mode?.includes('dashed');
  // Only thresholds near the data: the stale-age line (1,800 s) is not scaled
  // to demo speed, like the rules' threshold, and would flatten the ages.
  const top = Math.max(...rows.map((row) => row.v));
  const steps = (defaults.thresholds?.steps ?? []).filter(
    (step) => step.value !== null && step.value <= 2 * top,
  );
  if (dashed && steps.length > 0) {
    layers.push({
      data: { values: steps.map((step) => ({ threshold: step.value })) },
      mark: { type: 'rule', strokeDash: [6, 4], color: '#d44a3a' },
      encoding: { y: { field: 'threshold', type: 'quantitative' } },
    });
  }
  return { title, width, height, data: { values: rows }, layer: layers };
}

/** The dashboard as one SVG: panels on its grid, each drawn from `panels`' results. */
export async function renderDashboard(
  title: string,
  panels: readonly PanelData[],
  start: number,
  end: number,
): Promise<string> {
  const span = Math.round(end - start);
  const byRow = new Map<number, PanelData[]>();
  for (const data of panels) {
    const y = data.panel.gridPos?.y ?? 0;
    byRow.set(y, [...(byRow.get(y) ?? []), data]);
  }
  const rows = [...byRow.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => ({
      hconcat: row
        .sort((a, b) => (a.panel.gridPos?.x ?? 0) - (b.panel.gridPos?.x ?? 0))
        .map((data) => panelSpec(data, start, span)),
      resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
    }));
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, anchor: 'start', fontSize: 16 },
    background: 'white',
    padding: 12,
    vconcat: rows,
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
    config: { view: { stroke: '#ddd' }, axis: { labelFontSize: 10, titleFontSize: 10 } },
  };
  const compiled = vl.compile(spec as unknown as vl.TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
