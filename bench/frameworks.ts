// What argcheck adds to a tool call of each agent framework: one turn
// (bench/lib/framework-setups.ts) timed plain, auto-patched and through the
// explicit entry point, interleaved round by round in one process with a
// second plain variant as the noise floor; then argcheck's own CPU per tool
// call from profiles of the same turns (bench/lib/cpu-profile.ts), and which
// other frames hold the rest of what it adds.
//   npm run bench -- --only frameworks-langchain [-- --rounds 60 --turns 20]
//   (frameworks-claude-agent; frameworks-openai-agents, frameworks-ai-sdk and frameworks-mastra need
//   Node 22+ and run in the Node 24 tree: bash scripts/compat-otel3.sh first)
import {
  attribute,
  ownFigure,
  pairRange,
  PROFILE_PAIRS,
  type Attribution,
} from './lib/cpu-profile.js';
import { frameworkSetup, FRAMEWORKS } from './lib/framework-setups.js';
import { timeTurns, type Variant } from './lib/framework-turns.js';
import { num, type BenchOptions, type BenchResult } from './lib/report.js';

/** argcheck's own CPU per tool call must stay under this, in every integration. */
const OWN_BAR_US = 2;
/** Tool calls per profile, by default. */
const PROFILED_CALLS = 2_000;

export async function frameworks(options: BenchOptions): Promise<BenchResult> {
  const name = options.string('framework', '');
  const make = await frameworkSetup(name);
  if (make === undefined) {
    throw new Error(`--framework takes one of ${FRAMEWORKS.join(', ')}`);
  }
  const ROUNDS = options.number('rounds', 40);
  const TURNS = options.number('turns', 20);
  const setup = await make();
  const per = setup.callsPerTurn;
  // About 2,000 tool calls per profile, whatever a turn holds: with one call
  // a turn, 200 turns gave a sample or two per argcheck function.
  const PROFILED = options.number('profiled-turns', Math.ceil(PROFILED_CALLS / per));
  // Turns of the variants that check, to say how many checks must have been counted.
  let checkedTurns = 0;
  const variants: Variant[] = setup.variants.map((v) =>
    v.key === 'plain' || v.key === 'control'
      ? v
      : {
          ...v,
          turn: (i) => {
            checkedTurns++;
            return v.turn(i);
          },
        },
  );
  const t = await timeTurns(variants, ROUNDS, TURNS);
  const plain = variants[0] as Variant;
  const own = new Map<string, Attribution>();
  for (const v of variants.slice(2)) {
    let current = plain;
    own.set(
      v.key,
      await attribute(
        (on) => {
          current = on ? v : plain;
          current.select?.();
        },
        async () => {
          for (let i = 0; i < PROFILED; i++) await current.turn(i);
        },
        PROFILED * per,
      ),
    );
  }
  const checked = await setup.checked();
  await setup.close();
  const expected = checkedTurns * per;

  const base = t.medianUs.plain ?? 0;
  const timing = variants.map((v) => [
    v.key,
    num(t.medianUs[v.key] ?? 0, 1),
    num((t.medianUs[v.key] ?? 0) / base, 3),
    `${num((((t.medianUs[v.key] ?? 0) - base) * 1000) / per, 0)} ns`,
    num(t.p10Us[v.key] ?? 0, 1),
    num(t.p90Us[v.key] ?? 0, 1),
  ]);
  const attributed = [...own].map(([key, a]) => {
    const rest = a.added.filter(([group]) => group !== 'argcheck').slice(0, 3);
    return [
      key,
      num(a.ownUs, 2),
      pairRange(a, (us) => num(us, 2)),
      num(a.profiledUs, 2),
      `${num(a.slowdown, 2)}×`,
      rest.map(([group, us]) => `${group} ${num(us, 1)}`).join(', '),
    ];
  });
  console.log(
    `µs per turn (${per} tool call${per === 1 ? '' : 's'}), ${ROUNDS} rounds of ${TURNS}:`,
  );
  for (const row of timing) console.log(`  ${row.join('  ')}`);
  console.log('argcheck’s own µs per tool call, and the other frames that grew most:');
  for (const row of attributed) console.log(`  ${row.join('  ')}`);
  console.log(`checks counted: ${checked} of ${expected}`);
  return {
    title: `${setup.title} tool calls, instrumented vs not`,
    method:
      `One turn is ${setup.turn}. Arguments cycle through 40 codes, 5 % out of set, observe ` +
      'mode against a configured set. Variants, interleaved round by round in rotated order: ' +
      'plain (twice: the second is the control, the noise floor), auto-patched, and the ' +
      `explicit entry point. ${ROUNDS} rounds of ${TURNS} turns per variant; medians of ` +
      'single-turn latencies. Then argcheck’s own CPU: the same turns under V8’s sampling ' +
      `profiler (every 50 µs), ${PROFILED} turns per profile, plain and instrumented ` +
      `alternated in ${PROFILE_PAIRS} pairs, each run once more without the profiler; the ` +
      'self time of frames in argcheck’s packages (the check, its telemetry, and the wrappers ' +
      'it installs) per tool call, scaled by the time the turns take without the profiler ' +
      'over the time they took under it (the profiler slows what it profiles: ' +
      'docs/decisions/0032-own-cpu-without-the-profilers-slowdown.md), median over the ' +
      'pairs (the lowest and highest pair beside it), with the self time as profiled and the ' +
      'slowdown beside it, and the other groups of frames (a package, `node`, the garbage ' +
      'collector) whose self time grew most ' +
      'with argcheck on.',
    tables: [
      {
        head: ['variant', 'µs per turn', 'ratio', 'added per tool call', 'p10 µs', 'p90 µs'],
        rows: timing,
      },
      {
        caption: 'argcheck’s own CPU per tool call, from the profiles',
        head: [
          'variant',
          'argcheck µs per call',
          'its pairs, lowest–highest',
          'as profiled',
          'profiler slowdown',
          'other frames that grew most, µs per call',
        ],
        rows: attributed,
      },
    ],
    bars: [
      ...[...own].map(([key, a]) => ({
        bar: `argcheck’s own CPU per tool call, ${key}: ≤ ${OWN_BAR_US} µs`,
        figure: ownFigure(a, (us) => num(us, 2)),
        holds: a.ownUs <= OWN_BAR_US,
      })),
      {
        bar: 'every checked tool call counted once',
        figure: `${num(checked)} of ${num(expected)}`,
        holds: checked === expected,
      },
    ],
    notes: [
      'A turn on a scripted model is the cheapest tool call the framework can make; a real ' +
        'model call adds hundreds of milliseconds. The A/B figure of a turn this cheap moves ' +
        'with the machine (compare the control row); the profile says what argcheck itself ' +
        'runs. Frames other than argcheck’s grow when its work changes what the framework ' +
        'does afterwards (caches, the garbage collector) — see the second table.',
    ],
    raw: { timings: t, attribution: Object.fromEntries(own), rounds: ROUNDS, turns: TURNS },
  };
}
