import { expect } from 'chai';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PORTS, portIsFree } from '../../deploy/stack/src/ports.js';
import { ManagedProcess, killAllOnExit } from '../../deploy/stack/src/processes.js';
import { repoRoot } from '../helpers/repo.js';
import { alive, startedPids } from './support/stack-output.js';
import { recordFigure } from '@argcheck/testing/figures';

// `npm run stack` never leaves a program behind when it cannot start: what
// it started before the failure is stopped by its id, and the exit status
// says it failed. (Ctrl-C after a successful start: see-it-locally.test.ts.)

const MAIN = join(repoRoot, 'build/deploy/stack/src/main.js');

async function runStack(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ process: ManagedProcess; lines: string[] }> {
  const lines: string[] = [];
  const stack = new ManagedProcess('stack', process.execPath, [MAIN, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    onLine: (line) => lines.push(line),
  });
  await stack.whenExited();
  return { process: stack, lines };
}

describe('npm run stack, when a program cannot start', function () {
  this.timeout(120_000);
  killAllOnExit();
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'argcheck-stack-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the collector, Alertmanager and the receiver it started when Prometheus exits at start-up', async () => {
    // A stand-in for Prometheus that fails at once, first on PATH: the only
    // way to make the real one fail to start on demand.
    const bin = join(dir, 'bin');
    const fake = join(bin, 'prometheus');
    mkdirSync(bin);
    writeFileSync(fake, '#!/bin/sh\necho "err: cannot open the storage" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const { process: stack, lines } = await runStack(['--dir', join(dir, 'run')], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      ARGCHECK_STACK_FREE_PORTS: '1',
    });
    const output = `${lines.join('\n')}\n${stack.describe(40)}`;
    expect(stack.exit, output).to.equal('status 1');
    expect(output).to.match(/prometheus exited early/);
    const pids = startedPids(lines);
    expect([...pids.keys()].sort(), output).to.deep.equal(
      ['alert-receiver', 'alertmanager', 'collector', 'prometheus'].sort(),
    );
    for (const [name, pid] of pids) {
      expect(alive(pid), `${name} (pid ${pid}) still running`).to.equal(false);
    }
    const running = [...pids.values()].filter(alive).length;
    recordFigure(
      'stack-stops',
      `${pids.size} programs started (${[...pids.keys()].join(', ')}), ${running} still running after the stack exited (${stack.exit}, naming Prometheus)`,
    );
  });

  it('starts nothing and names the port when a default port is taken', async () => {
    let server: Server | undefined;
    if (await portIsFree(DEFAULT_PORTS.receiver)) {
      server = createServer();
      await new Promise<void>((resolve) =>
        server!.listen(DEFAULT_PORTS.receiver, '127.0.0.1', resolve),
      );
    }
    try {
      const { process: stack, lines } = await runStack(['--dir', join(dir, 'run')], {
        ARGCHECK_STACK_FREE_PORTS: '',
      });
      const output = `${lines.join('\n')}\n${stack.describe(40)}`;
      expect(stack.exit, output).to.equal('status 1');
      expect(output).to.include(`receiver ${DEFAULT_PORTS.receiver}`);
      expect(output).to.include('--free-ports');
      expect(startedPids(lines).size, output).to.equal(0);
    } finally {
      server?.close();
    }
  });
});
