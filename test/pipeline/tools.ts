/**
 * Running the pipeline's external programs from tests. A missing program is a
 * test failure with instructions, never a silent skip.
 */
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './dashboard-queries.js';

export { REPO_ROOT };

const INSTALL_HINT: Record<string, string> = {
  promtool:
    'promtool is not installed: run `bash deploy/install-tools.sh` (Debian package prometheus)',
  amtool:
    'amtool is not installed: run `bash deploy/install-tools.sh` (Debian package prometheus-alertmanager)',
  prometheus:
    'prometheus is not installed: run `bash deploy/install-tools.sh` (Debian package prometheus)',
};

export function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Throws (so the test fails, with what to do) when a program is missing. */
export function requireCommand(name: string): void {
  if (!hasCommand(name)) throw new Error(INSTALL_HINT[name] ?? `${name} is not on PATH`);
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr, for assertion messages. */
  output: string;
}

export function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): RunResult {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  const stdout = result.stdout ?? '';
  const stderr = result.stderr ?? '';
  return { status: result.status, stdout, stderr, output: `${stdout}\n${stderr}` };
}

/**
 * Path of the argcheck collector, reusing an existing build only. Builds take
 * minutes; CI runs `bash deploy/collector/build.sh` before the tests.
 */
export function collectorBinary(): string {
  const result = run('bash', ['deploy/collector/build.sh', '--reuse']);
  if (result.status !== 0) {
    throw new Error(
      `the argcheck collector is not built (or is stale): run \`bash deploy/collector/build.sh\` first.\n${result.stderr}`,
    );
  }
  return result.stdout.trim();
}
