// One benchmark in its own process, started by bench/run.ts:
//   node --expose-gc build/bench/lib/run-one.js <name> --json <path> [--option value ...]
// Runs the benchmark's function and writes its result to <path> as JSON.
import { writeFileSync } from 'node:fs';
import { benchmark } from '../benchmarks.js';
import { parseOptions } from './report.js';

const [name, ...rest] = process.argv.slice(2);
const load = name === undefined ? undefined : benchmark(name)?.load;
if (load === undefined) throw new Error(`no benchmark named ${name} in bench/benchmarks.ts`);
const options = parseOptions(rest);
const out = options.string('json', '');
const result = await (await load())(options);
if (out !== '') writeFileSync(out, JSON.stringify(result));
// A benchmark closes what it opened; an SDK timer it cannot reach must not hold the process.
process.exit(0);
