// Where a benchmark's CPU time goes, from V8's sampling profiler in the same
// process (node:inspector): self time per frame, grouped. argcheck's own time
// is the self time of frames in its packages' builds (the check, the
// telemetry, and the wrappers it installs, which are functions of those
// files); comparing two profiles of the same work with and without argcheck
// says which other frames hold the rest of what it adds.
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A frame's group: `argcheck`, a package name, `node`, or a V8 pseudo-frame (`(garbage collector)`). */
export function frameGroup(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const path = url.startsWith('file://') ? decodeURI(url.slice('file://'.length)) : url;
  if (
    /[/\\](packages[/\\](core|instrumentation)[/\\]build|node_modules[/\\]@argcheck)[/\\]/.test(
      path,
    )
  ) {
    return 'argcheck';
  }
  if (path.startsWith('node:')) return 'node';
  const inModules = /.*node_modules[/\\]((?:@[^/\\]+[/\\])?[^/\\]+)/.exec(path);
  if (inModules !== null) return (inModules[1] as string).replace(/\\/g, '/');
  return 'benchmark';
}

/**
 * With ARGCHECK_PROFILE_DETAIL=1, argcheck's frames are grouped per file and
 * function (`argcheck <dir/file> <function>`), and `attribute` prints the
 * heaviest: where to look when its own time is over a bar.
 */
const DETAIL = process.env.ARGCHECK_PROFILE_DETAIL === '1';

/** Self time in µs per group, from one profile. */
export function selfTimeByGroup(profile: Profile): Map<string, number> {
  const groupOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const group = frameGroup(node.callFrame.url, node.callFrame.functionName);
    const file = node.callFrame.url.split('/').slice(-2).join('/');
    groupOf.set(
      node.id,
      DETAIL && group === 'argcheck' ? `argcheck ${file} ${node.callFrame.functionName}` : group,
    );
  }
  const byGroup = new Map<string, number>();
  // timeDeltas[i] is the time since the previous sample: it belongs to sample i.
  // A delta far over the sampling interval is the thread descheduled (a noisy,
  // shared machine), not CPU the sampled frame used: each sample counts at most
  // four times the profile's median delta.
  const cap = 4 * median(profile.timeDeltas.length > 0 ? profile.timeDeltas : [0]);
  for (let i = 0; i < profile.samples.length; i++) {
    const group = groupOf.get(profile.samples[i] as number) ?? '(unknown)';
    const delta = Math.min(profile.timeDeltas[i] ?? 0, cap);
    byGroup.set(group, (byGroup.get(group) ?? 0) + delta);
  }
  return byGroup;
}

/** One profile: self time per group, µs, and the wall time `work` took under the profiler. */
export interface Profiled {
  readonly byGroup: Map<string, number>;
  readonly wallUs: number;
}

/** Run `work` under the sampling profiler (every `intervalUs`); its self time per group, µs. */
export async function profiled(work: () => Promise<unknown>, intervalUs = 50): Promise<Profiled> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
    await session.post('Profiler.start');
    const start = performance.now();
    await work();
    const wallUs = (performance.now() - start) * 1000;
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    return { byGroup: selfTimeByGroup(profile), wallUs };
  } finally {
    await session.post('Profiler.disable').catch(() => undefined);
    session.disconnect();
  }
}

/** The wall time of `work` without the profiler, µs. */
async function unprofiledUs(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) * 1000;
}

export interface Attribution {
  /**
   * argcheck's own CPU per call, µs: its frames' share of an instrumented
   * profile, applied to the time the same work takes without the profiler
   * (docs/decisions/0032-own-cpu-without-the-profilers-slowdown.md); the
   * median over pairs.
   */
  ownUs: number;
  /** The same, for each pair of profiles: how much it moved with the machine. */
  ownUsByPair: number[];
  /** argcheck's frames' self time per call as the profiler recorded it (slowed down by it), µs: the median over pairs. */
  profiledUs: number;
  /** How many times slower the instrumented work ran under the profiler than without it: the median over pairs. */
  slowdown: number;
  /** Per group, µs per call more (or less) with argcheck than without (medians over pairs, each profile scaled as `ownUs` is), largest first. */
  added: [group: string, us: number][];
  /** How many times `work` ran with argcheck on (each pair: profiled, then without the profiler). */
  onRuns: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const isOwn = (group: string) => group.startsWith('argcheck');

/** The self time of argcheck's frames in one profile's groups. */
function ownTotal(byGroup: Map<string, number>): number {
  let total = 0;
  for (const [group, us] of byGroup) if (isOwn(group)) total += us;
  return total;
}

/** The lowest and highest of the pairs' figures of argcheck's own CPU per call, `1.32–1.90`: how far one figure moves. */
export function pairRange(a: Attribution, format: (us: number) => string): string {
  const figures = a.ownUsByPair.length > 0 ? a.ownUsByPair : [a.ownUs];
  return `${format(Math.min(...figures))}–${format(Math.max(...figures))}`;
}

/** A bar's figure of argcheck's own CPU: the median, and how far its pairs spread (`1.47 µs (pairs 1.32–1.90)`). */
export function ownFigure(a: Attribution | undefined, format: (us: number) => string): string {
  if (a === undefined) return 'not profiled';
  return `${format(a.ownUs)} µs (pairs ${pairRange(a, format)})`;
}

/** Pairs of profiles `attribute` takes by default: the work runs this many times with argcheck on. */
export const PROFILE_PAIRS = 5;

/**
 * Profile the same work with argcheck off and on (`set(false)`, `set(true)`),
 * in `pairs` pairs, alternating which goes first, each over `calls` tool
 * calls, and run each once more without the profiler: argcheck's own µs per
 * call and where the difference between the two profiles of a pair lies, as
 * medians over the pairs (a machine whose speed moves between profiles moves
 * single figures a lot).
 *
 * A sampling profiler slows what it profiles: on these machines the same
 * turns took 1.3 to 3 times as long under it at a 50 µs interval, and still
 * 1.5 to 2 times at 1 ms. A group's self time is its share of the samples
 * times the profiled time, so each profile's self times are scaled by the
 * time the work takes without the profiler over the time it took under it:
 * the CPU the frames use in a run nobody profiles, on the assumption that
 * the slowdown falls on every frame alike.
 */
export async function attribute(
  set: (on: boolean) => void,
  work: () => Promise<unknown>,
  calls: number,
  pairs = PROFILE_PAIRS,
): Promise<Attribution> {
  const own: number[] = [];
  const raw: number[] = [];
  const slowdowns: number[] = [];
  const deltas = new Map<string, number[]>();
  const detail = new Map<string, number[]>();
  for (let p = 0; p < pairs; p++) {
    const by: Record<'on' | 'off', Map<string, number>> = { on: new Map(), off: new Map() };
    for (const on of p % 2 === 0 ? [false, true] : [true, false]) {
      set(on);
      const { byGroup, wallUs } = await profiled(work);
      const slowdown = wallUs / (await unprofiledUs(work));
      const scaled = new Map<string, number>();
      for (const [g, us] of byGroup) scaled.set(g, us / slowdown);
      by[on ? 'on' : 'off'] = scaled;
      if (on) {
        slowdowns.push(slowdown);
        raw.push(ownTotal(byGroup) / calls);
      }
    }
    own.push(ownTotal(by.on) / calls);
    const ours = [...by.on].filter(([g]) => isOwn(g));
    for (const [g, us] of ours) detail.set(g, [...(detail.get(g) ?? []), us / calls]);
    const groups = new Set([...by.on.keys(), ...by.off.keys()].filter((g) => !isOwn(g)));
    for (const g of groups) {
      if (g === '(idle)') continue;
      const delta = ((by.on.get(g) ?? 0) - (by.off.get(g) ?? 0)) / calls;
      deltas.set(g, [...(deltas.get(g) ?? []), delta]);
    }
  }
  set(true);
  if (DETAIL) {
    const rows = [...detail].map(([g, list]): [string, number] => [g, median(list)]);
    for (const [g, us] of rows.sort((a, b) => b[1] - a[1]).slice(0, 25)) {
      console.log(`  ${us.toFixed(3)} µs  ${g}`);
    }
  }
  const ownUs = median(own);
  const added: [string, number][] = [
    ['argcheck', ownUs],
    ...[...deltas].map(([g, list]): [string, number] => [g, median(list)]),
  ];
  return {
    ownUs,
    ownUsByPair: own,
    profiledUs: median(raw),
    slowdown: median(slowdowns),
    added: added.sort((a, b) => b[1] - a[1]),
    onRuns: 2 * pairs,
  };
}
