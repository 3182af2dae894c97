// The `argcheck` bin as npm links it (the CLI package's own `bin` entry), run
// in a child process that writes its own peak resident memory as it exits.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The CLI package's directory and its manifest. */
export function cliPackage(): {
  dir: string;
  manifest: { bin: { argcheck: string }; files: string[] };
} {
  const require = createRequire(import.meta.url);
  const path = require.resolve('@argcheck/cli/package.json');
  return { dir: dirname(path), manifest: JSON.parse(readFileSync(path, 'utf8')) as never };
}

/** The file the `argcheck` bin entry names. */
export function argcheckBin(): string {
  const { dir, manifest } = cliPackage();
  return join(dir, manifest.bin.argcheck);
}

export interface BinRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the child, in MB (10^6 bytes). */
  peakMB: number;
  seconds: number;
}

/** Runs `node <file> ...args` (the bin unless told) and reports its peak RSS. */
export async function runNode(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<BinRun> {
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-maxrss-'));
  const rssFile = join(dir, 'maxrss');
  const preload = join(dir, 'maxrss.mjs');
  writeFileSync(
    preload,
    "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.MAXRSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
  const started = process.hrtime.bigint();
  try {
    // Linux keeps a process's peak RSS across fork and exec: a child forked
    // straight from this process would report at least this process's RSS.
    // Through a shell that forks it (`; exit $?` keeps sh from exec'ing it),
    // the peak is the child's own.
    const node = [process.execPath, '--import', pathToFileURL(preload).href, ...args];
    const child = spawn('sh', ['-c', '"$0" "$@"; exit $?', ...node], {
      env: { ...env, MAXRSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
    // maxRSS is in kibibytes.
    const peakMB = (Number(readFileSync(rssFile, 'utf8')) * 1024) / 1e6;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { status, stdout, stderr, peakMB, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the `argcheck` bin with `args`. */
export const runArgcheck = (args: readonly string[], env?: NodeJS.ProcessEnv): Promise<BinRun> =>
  runNode([argcheckBin(), ...args], env);
