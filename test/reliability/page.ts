// docs/reliability.md from the rows (rows.ts), the figures their tests
// recorded (figures.json) and the last soak (soak/result.json). Rendering is
// deterministic — every date comes from the figures or the soak — so `npm test`
// can render the page and compare it with the one committed.
import { existsSync, readFileSync } from 'node:fs';
import * as prettier from 'prettier';
import type { SoakResult } from '../../soak/result.js';
import { repoRoot } from '../helpers/repo.js';
import { compiledPath, isTest, NPM_TEST, suiteOf, testCitations } from './citations.js';
import { AREAS, type Citation, type FaultRow, type TestCitation } from './rows.js';

export const PAGE = `${repoRoot}docs/reliability.md`;
export const FIGURES = `${repoRoot}test/reliability/figures.json`;
export const SOAK = `${repoRoot}soak/result.json`;

/** A row's figure as its tests recorded it. */
export interface StoredFigure {
  /** What they recorded, in the order the row cites them, joined. */
  figure: string;
  /** The tests that recorded it. */
  recordedBy: TestCitation[];
}

/** test/reliability/figures.json: what the last `npm run reliability` of each suite recorded. */
export interface FigureStore {
  /** By suite (`npm test`, `npm run test:pipeline`, ...): when its tests last recorded figures. */
  runs: Record<string, { date: string; node: string }>;
  /** By row id. */
  figures: Record<string, StoredFigure>;
}

export function readStore(): FigureStore {
  return JSON.parse(readFileSync(FIGURES, 'utf8')) as FigureStore;
}

export function readSoak(): SoakResult | undefined {
  return existsSync(SOAK) ? (JSON.parse(readFileSync(SOAK, 'utf8')) as SoakResult) : undefined;
}

/** A row whose figure is what the soak said of the checks it cites. */
export const isSoakRow = (row: FaultRow): boolean => row.provedBy.every((c) => 'soakCheck' in c);

/** The tests a row cites whose source records its figure (names its id). */
export function recorders(row: FaultRow): TestCitation[] {
  return row.provedBy
    .filter(isTest)
    .filter((c) => readFileSync(`${repoRoot}${c.test}`, 'utf8').includes(`'${row.id}'`));
}

/** The suite that runs the tests recording a row's figure. */
export function suiteOfRow(row: FaultRow): string | undefined {
  const [first] = recorders(row);
  return first === undefined ? undefined : suiteOf(compiledPath(first.test));
}

export function num(x: number, digits = 0): string {
  return x.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

const cell = (value: string): string => value.replaceAll('|', '\\|').replaceAll('\n', ' ');

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const right = head.map((_, i) => rows.every((r) => /^(|[-+]?[\d.,]+)$/.test(r[i] ?? '')));
  return [
    `| ${head.map(cell).join(' | ')} |`,
    `| ${right.map((r) => (r ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

function cite(c: Citation): string {
  if ('test' in c) {
    const suite = suiteOf(compiledPath(c.test));
    return `\`${c.test}\` — “${c.title}”${suite === NPM_TEST ? '' : ` (\`${suite}\`)`}`;
  }
  if ('soakCheck' in c) return `\`npm run soak\` — soak check \`${c.soakCheck}\``;
  return `\`npm run bench -- --only ${c.benchmark}\` (docs/benchmarks.md)`;
}

/** The measured column of a row: its test's figure, or what the soak said of its checks. */
function measured(row: FaultRow, store: FigureStore, soak: SoakResult | undefined): string {
  if (!isSoakRow(row)) {
    return store.figures[row.id]?.figure ?? '**no figure recorded: run `npm run reliability`**';
  }
  if (soak === undefined) return 'no soak recorded yet: run `npm run soak`';
  return row.provedBy
    .flatMap((c) => ('soakCheck' in c ? [c.soakCheck] : []))
    .map((id) => {
      const check = soak.checks.find((k) => k.id === id);
      if (check === undefined) return `\`${id}\` not judged`;
      return `${check.figure} (\`${id}\`${check.ok ? '' : ', **failed**'})`;
    })
    .join('; ');
}

/** How many tests the rows cite, and in which suites. */
function citedSummary(rows: readonly FaultRow[]): string {
  const bySuite = new Map<string, number>();
  for (const c of testCitations(rows)) {
    const suite = suiteOf(compiledPath(c.test));
    bySuite.set(suite, (bySuite.get(suite) ?? 0) + 1);
  }
  const total = [...bySuite.values()].reduce((a, b) => a + b, 0);
  const parts = [...bySuite].map(([suite, n]) => `${n} in \`${suite}\``).join(', ');
  return `${total}, every one found by mocha: ${parts}`;
}

function soakSection(s: SoakResult): string[] {
  const names = {
    calm: 'callTool, all well',
    ownerDown: 'callTool, an owner down',
    otlpDown: 'callTool, OTLP endpoint down',
  };
  return [
    '## The soak',
    '',
    `\`${s.command}\` — ${num(s.calls.made)} MCP \`callTool\` calls in ${s.durationS} s ` +
      `(${s.rate} a second, mode \`${s.mode}\`) through a client instrumented with ` +
      '`inst.instrumentMcpClient`, to an MCP server as a stdio child; value sets from a ' +
      `loopback owner (TTL ${s.settings.ttlMs / 1000} s, \`maxStaleMs\` ` +
      `${s.settings.maxStaleMs / 1000} s, \`fetchTimeoutMs\` ${s.settings.fetchTimeoutMs / 1000} s); ` +
      `metrics every ${s.settings.exportIntervalMs / 1000} s and sampled logs over OTLP/HTTP to ` +
      `${s.endpointDescription}.`,
    '',
    table(
      ['at', 'what happened'],
      s.schedule.map((e) => [`${e.at} s`, e.label]),
    ),
    '',
    table(
      ['check', 'measured', ''],
      s.checks.map((c) => [`${c.name} (\`${c.id}\`)`, c.figure, c.ok ? 'passed' : '**failed**']),
    ),
    '',
    table(
      ['', 'calls', 'p50 ms', 'p99 ms'],
      (Object.keys(names) as (keyof typeof names)[]).map((k) => [
        names[k],
        num(s.latencyMs[k].n),
        num(s.latencyMs[k].p50, 2),
        num(s.latencyMs[k].p99, 2),
      ]),
    ),
    '',
    `Heap after \`gc()\` every 10 s (MiB): ${s.heap.samples.map((h) => `${h.at} s ${num(h.mib, 1)}`).join(', ')}.`,
    '',
  ];
}

/** The page, formatted as prettier formats docs/reliability.md. */
export async function renderPage(
  rows: readonly FaultRow[],
  store: FigureStore,
  soak: SoakResult | undefined,
): Promise<string> {
  // Suites that recorded in the same run are named together.
  const bySuiteRun = new Map<string, string[]>();
  for (const [suite, run] of Object.entries(store.runs).sort(([a], [b]) =>
    a === NPM_TEST ? -1 : b === NPM_TEST ? 1 : a < b ? -1 : 1,
  )) {
    const when = `${run.date}, Node ${run.node}`;
    bySuiteRun.set(when, [...(bySuiteRun.get(when) ?? []), `\`${suite}\``]);
  }
  const runs = [...bySuiteRun].map(([when, suites]) => `${suites.join(', ')}: ${when}`).join('; ');
  const lines = [
    '# Reliability',
    '',
    '<!-- Generated by `npm run reliability` (test/reliability/generate.ts), and after `npm run soak`. Do not edit: run it again. -->',
    '',
    'The fault matrix: every way the check has been made to fail, what it does then, the tests ' +
      'that prove it (in `npm test`, unless another suite is named), and what was measured. ' +
      'Each figure was recorded by the tests its row cites, as they ran against the real ' +
      'provider, checker, instrumentation, MCP SDK, `argcheck` bin, collector or stack ' +
      '(with a fake clock where time matters, so a 40-minute outage takes a second): ' +
      '`npm run reliability` runs the cited tests and renders this page from what they recorded. ' +
      'The soak rows are what the last `npm run soak` judged. Speed and memory are measured by ' +
      'the benchmarks a row names. The rows live in `test/reliability/rows.ts`; `npm test` fails ' +
      'when mocha does not find a test a row cites, when a row has no figure from its test, or ' +
      'when this page is not what the rows and figures render.',
    '',
    table(
      ['', ''],
      [
        ['figures recorded', runs],
        ['faults', String(rows.length)],
        ['tests cited', citedSummary(rows)],
        [
          'soak',
          soak
            ? `${soak.date}: \`${soak.command}\`, ${soak.durationS} s, OTLP to ${soak.endpointDescription} — ${soak.passed ? 'passed' : '**failed**'}`
            : 'not run yet (`npm run soak`)',
        ],
      ],
    ),
    '',
  ];
  for (const area of AREAS) {
    lines.push(`## ${area}`, '');
    lines.push(
      table(
        ['fault', 'expected behaviour', 'proved by', 'measured'],
        rows
          .filter((r) => r.area === area)
          .map((r) => [
            r.fault,
            r.expected,
            r.provedBy.map(cite).join('<br>'),
            measured(r, store, soak),
          ]),
      ),
      '',
    );
  }
  if (soak) lines.push(...soakSection(soak));
  const options = (await prettier.resolveConfig(PAGE)) ?? {};
  return prettier.format(`${lines.join('\n')}\n`, { ...options, filepath: PAGE });
}
