/**
 * `npm run docs:dashboard`: runs the stack at demo speed and the demo into
 * it (`--duration 120`), then draws every dashboard panel from its own
 * queries against that Prometheus into docs/images/dashboard.svg. The
 * dashboard's literal windows (`[1h]`) are divided by the demo speed like the
 * rules', and `$__rate_interval` is 3 s (four scrapes and a half at 0.5 s).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAlertReceiver } from './alert-receiver.js';
import { renderDashboard, type PanelData } from './dashboard-pictures.js';
import { dashboardQueries, loadDashboard } from './dashboard-queries.js';
import {
  DEMO_DURATION_S,
  DEMO_SPEED,
  scaleDuration,
  startDemoSpeedPipeline,
} from './demo-speed.js';
import { freePorts } from './ports.js';
import { killAllOnExit, ManagedProcess } from './processes.js';
import type { Pipeline } from './pipeline.js';
import type { RangeSeries } from './prometheus-client.js';
import { alertmanagerBinary, collectorBinary, prometheusBinary, REPO_ROOT } from './programs.js';

const RATE_INTERVAL = '3s';
/** How long the picture goes on after the demo ends: long enough to show the windows empty. */
const TAIL_S = 15;
const OUTPUT = join(REPO_ROOT, 'docs/images/dashboard.svg');

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A dashboard query at demo speed: literal windows divided, like the rules'. */
function atDemoSpeed(expr: string): string {
  return expr.replace(/\[(\d+(?:ms|s|m|h|d|w))\]/g, (match, d: string) =>
    d === RATE_INTERVAL ? match : `[${scaleDuration(d, DEMO_SPEED)}]`,
  );
}

async function draw(pipeline: Pipeline, start: number, end: number): Promise<string> {
  const results = new Map<number, Record<string, RangeSeries[]>>();
  for (const q of dashboardQueries({ rangeInterval: RATE_INTERVAL })) {
    const series = await pipeline.prometheus.queryRange(atDemoSpeed(q.expr), start, end, 1);
    results.set(q.panelId, { ...(results.get(q.panelId) ?? {}), [q.refId]: series });
  }
  const panels: PanelData[] = loadDashboard().panels.map((panel) => ({
    panel,
    results: results.get(panel.id) ?? {},
  }));
  const title = `argcheck dashboard — one run of the demo (npm start -- --otlp … --duration ${DEMO_DURATION_S}) at demo speed x${DEMO_SPEED}`;
  return renderDashboard(title, panels, start, end);
}

async function main(): Promise<void> {
  killAllOnExit();
  const binaries = {
    prometheus: prometheusBinary(),
    alertmanager: alertmanagerBinary(),
    collector: collectorBinary({ build: true }),
  };
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-dashboard-'));
  const receiver = await startAlertReceiver(0, (line) => console.log(`alert-receiver │ ${line}`));
  let pipeline: Pipeline | undefined;
  try {
    const ports = await freePorts();
    pipeline = await startDemoSpeedPipeline({ dir, ports, binaries, webhookUrl: receiver.url });
    console.log(`running the demo for ${DEMO_DURATION_S} s …`);
    const start = Date.now() / 1000;
    const demo = new ManagedProcess(
      'demo',
      process.execPath,
      [
        join(REPO_ROOT, 'packages/cli/build/src/bin.js'),
        'demo',
        '--otlp',
        pipeline.otlpHttpUrl,
        '--duration',
        String(DEMO_DURATION_S),
      ],
      { cwd: REPO_ROOT },
    );
    await demo.whenExited();
    if (demo.exit !== 'status 0') throw new Error(`the demo failed\n${demo.describe()}`);
    await pause(TAIL_S * 1000);
    const svg = await draw(pipeline, start, Date.now() / 1000);
    mkdirSync(join(REPO_ROOT, 'docs/images'), { recursive: true });
    writeFileSync(OUTPUT, svg);
    console.log(`wrote ${OUTPUT} (${svg.length} bytes)`);
  } finally {
    await pipeline?.stop();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
