/**
 * Where the pipeline's programs are: the repository (for the shipped
 * configuration), the argcheck collector, Prometheus and Alertmanager. A
 * missing program is an error that says how to get it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root (this file runs as build/deploy/stack/src/programs.js). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

export function prometheusBinary(): string {
  if (!hasCommand('prometheus')) {
    throw new Error(
      'Prometheus is not installed: run `bash deploy/install-tools.sh` (Debian package prometheus)',
    );
  }
  return 'prometheus';
}

/** Debian names Alertmanager `prometheus-alertmanager`; upstream builds call it `alertmanager`. */
export function alertmanagerBinary(): string {
  const found = ['prometheus-alertmanager', 'alertmanager'].find(hasCommand);
  if (!found) {
    throw new Error(
      'Alertmanager is not installed: run `bash deploy/install-tools.sh` (Debian package prometheus-alertmanager)',
    );
  }
  return found;
}

/**
 * The argcheck collector's path from deploy/collector/build.sh. With `build`,
 * the script builds it when it is missing or stale (minutes, and Go is needed;
 * its progress goes to stderr); without, it only reuses a current binary.
 */
export function collectorBinary(options: { build: boolean } = { build: false }): string {
  const result = spawnSync(
    'bash',
    ['deploy/collector/build.sh', ...(options.build ? [] : ['--reuse'])],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', options.build ? 'inherit' : 'pipe'],
      timeout: 30 * 60_000,
    },
  );
  if (result.status !== 0) {
    throw new Error(
      `the argcheck collector is not built (or is stale): run \`bash deploy/collector/build.sh\` first.\n${result.stderr ?? ''}`,
    );
  }
  return result.stdout.trim();
}
