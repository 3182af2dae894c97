/**
 * Demo speed: the shipped rules and Alertmanager timers with every duration
 * divided by one factor, so that the story `argcheck demo` tells in two
 * minutes (weeks of traffic, a forty-minute owner outage) makes the alerts
 * fire and resolve while you watch. Generated from the shipped files every
 * time, never written by hand: a change to a threshold or an expression
 * reaches the demo-speed copy unchanged.
 *
 * What is scaled: every range selector (`[1h]`), every `for:`, and
 * Alertmanager's group_wait, group_interval and repeat_interval. What is not:
 * thresholds, including ToolArgumentValueSetStale's 1,800 s age (the demo's
 * sets never get that old, so that alert stays silent at demo speed).
 */
import { alertCount, replaceExactly } from './config-copies.js';
import { Pipeline, type PipelineOptions } from './pipeline.js';

/**
 * One demo second stands for five production minutes. With
 * `argcheck demo --duration 120`: ToolArgumentInventionRate's 1 h window is
 * 12 s and its `for: 2h` 24 s, which the 30 s baseline at 6.2 % outlasts and
 * the description rewrite (1.1 %) ends; ToolArgumentCheckUnavailable's
 * `for: 15m` is 3 s against an identity outage of about 7 s. See
 * docs/pipeline.md, "See it locally".
 */
export const DEMO_SPEED = 300;

/** The demo duration the factor is chosen for, in seconds (`argcheck demo --duration`). */
export const DEMO_DURATION_S = 120;

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Milliseconds of a Prometheus duration such as `1h`, `90s` or `1h30m`. */
export function durationMs(text: string): number {
  const parts = [...text.matchAll(/(\d+)(ms|s|m|h|d|w)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) {
    throw new Error(`not a Prometheus duration: ${text}`);
  }
  return parts.reduce((total, p) => total + Number(p[1]) * UNIT_MS[p[2]!]!, 0);
}

/** A duration in Prometheus's syntax: whole seconds when it is, milliseconds otherwise. */
export function formatDuration(ms: number): string {
  const rounded = Math.max(1, Math.round(ms));
  return rounded % 1000 === 0 ? `${rounded / 1000}s` : `${rounded}ms`;
}

/** `duration` divided by `speed`. */
export function scaleDuration(duration: string, speed: number): string {
  return formatDuration(durationMs(duration) / speed);
}

const RANGE = /\[(\d+(?:ms|s|m|h|d|w))+\]/g;
const FOR = /^(\s+for: )(\S+)$/gm;
const COMPONENT_LABEL = /^(\s+)component: argcheck$/m;

function header(speed: number): string {
  return [
    `# GENERATED at demo speed (x${speed}): one second here stands for ${speed} seconds`,
    '# of production time. Made from deploy/prometheus/rules/argcheck.rules.yml by',
    '# deploy/stack/src/demo-speed.ts (`npm run --silent stack:rules`); do not edit, do',
    '# not deploy. Every range selector and every `for:` is divided by the factor;',
    '# thresholds are not. Rule names keep their production windows (rate1h is a',
    `# ${scaleDuration('1h', speed)} rate here). The comments below are the shipped file's and`,
    '# speak of production time.',
    '',
  ].join('\n');
}

/**
 * The shipped rules at demo speed. Alerts also carry `speed: demo-x<factor>`
 * so that an alert from this copy is recognisable wherever it arrives.
 */
export function demoSpeedRules(rules: string, speed = DEMO_SPEED): string {
  if (!(speed >= 1)) throw new Error(`speed must be a number >= 1, not ${speed}`);
  const alerts = alertCount(rules);
  const forLines = rules.match(FOR)?.length ?? 0;
  if (forLines !== alerts) {
    throw new Error(`expected one for: per alert (${alerts}), found ${forLines}`);
  }
  const ranges = rules.match(RANGE)?.length ?? 0;
  if (ranges === 0) throw new Error('the rules file has no range selectors to scale');
  const scaled = rules
    .replace(RANGE, (range) => `[${scaleDuration(range.slice(1, -1), speed)}]`)
    .replace(
      FOR,
      (_line, prefix: string, value: string) => `${prefix}${scaleDuration(value, speed)}`,
    );
  const labelled = replaceExactly(
    scaled,
    COMPONENT_LABEL,
    `$1component: argcheck\n$1speed: demo-x${speed}`,
    alerts,
    'the rules file (component labels)',
  );
  return header(speed) + labelled;
}

/** alertmanager.yml's argcheck route timers at demo speed. */
export function demoSpeedAlertmanager(config: string, speed = DEMO_SPEED): string {
  let out = config;
  for (const key of ['group_wait', 'group_interval', 'repeat_interval']) {
    const pattern = new RegExp(`^(\\s+${key}: )(\\S+)$`, 'm');
    const value = pattern.exec(out)?.[2];
    if (value === undefined) throw new Error(`alertmanager.yml has no ${key}`);
    out = replaceExactly(out, pattern, `$1${scaleDuration(value, speed)}`, 1, 'alertmanager.yml');
  }
  return `# GENERATED at demo speed (x${speed}) from deploy/alertmanager/alertmanager.yml; do not deploy.\n${out}`;
}

/**
 * The pipeline with the demo-speed copies: what `npm run stack` and the
 * dashboard's pictures run. The demo exports every second, so Prometheus
 * scrapes twice as often: a window of a few demo seconds always holds a change.
 */
export function startDemoSpeedPipeline(
  options: Omit<
    PipelineOptions,
    'rules' | 'alertmanager' | 'scrapeInterval' | 'evaluationInterval' | 'prometheusFlags'
  > & {
    speed?: number;
  },
): Promise<Pipeline> {
  const { speed = DEMO_SPEED, ...rest } = options;
  return Pipeline.start({
    ...rest,
    scrapeInterval: '500ms',
    evaluationInterval: '1s',
    rules: (shipped) => demoSpeedRules(shipped, speed),
    alertmanager: (shipped) => demoSpeedAlertmanager(shipped, speed),
    prometheusFlags: ['--rules.alert.resend-delay=1s'],
  });
}
