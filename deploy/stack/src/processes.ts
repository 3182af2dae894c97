/**
 * The external programs of a pipeline (collector, Prometheus, Alertmanager,
 * the alert receiver): each in its own process group, so that stopping it also
 * stops anything it started and a Ctrl-C in the terminal reaches only the
 * program that started them, which then stops each one by its id. The tail of
 * each program's output is kept for error messages.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const TAIL_CHARS = 16_000;

export interface ProcessOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Called with each complete line the program writes (stdout and stderr). */
  onLine?: (line: string) => void;
}

export class ManagedProcess {
  readonly child: ChildProcess;
  private output = '';
  private exited: Promise<void>;
  private exitDescription: string | undefined;

  constructor(
    readonly name: string,
    command: string,
    args: readonly string[],
    options: ProcessOptions,
  ) {
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(this);
    const onLine = options.onLine;
    const partial = { stdout: '', stderr: '' };
    const keep = (stream: 'stdout' | 'stderr', chunk: string): void => {
      this.output = (this.output + chunk).slice(-TAIL_CHARS);
      if (!onLine) return;
      const lines = (partial[stream] + chunk).split('\n');
      partial[stream] = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    };
    this.child.stdout!.setEncoding('utf8').on('data', (c: string) => keep('stdout', c));
    this.child.stderr!.setEncoding('utf8').on('data', (c: string) => keep('stderr', c));
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitDescription = signal ? `signal ${signal}` : `status ${code}`;
        running.delete(this);
        resolve();
      });
      this.child.once('error', (error) => {
        this.exitDescription = `failed to start: ${error.message}`;
        running.delete(this);
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process is still running. */
  get alive(): boolean {
    return this.exitDescription === undefined;
  }

  /** How it ended (`status 1`, `signal SIGTERM`), or undefined while it runs. */
  get exit(): string | undefined {
    return this.exitDescription;
  }

  /** Resolves when the process has exited. */
  whenExited(): Promise<void> {
    return this.exited;
  }

  /** The process's recent stderr and stdout. */
  get log(): string {
    return this.output;
  }

  /** A labelled block for error messages. */
  describe(lines = 15): string {
    const state = this.alive ? 'running' : `exited (${this.exitDescription})`;
    const tail = this.output
      .split('\n')
      .slice(-lines)
      .map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line))
      .join('\n');
    return `--- ${this.name} (pid ${this.pid ?? '?'}, ${state}); last output:\n${tail}`;
  }

  /** Throws (with the output) when the process has exited. For readiness probes. */
  assertAlive(): void {
    if (!this.alive) throw new Error(`${this.name} exited early\n${this.describe()}`);
  }

  /** Send a signal to the process itself (for example SIGHUP to reload). */
  signal(signal: NodeJS.Signals): void {
    if (this.alive && this.pid !== undefined) process.kill(this.pid, signal);
  }

  /** SIGTERM to the whole process group; SIGKILL after `graceMs`. Resolves when it exited. */
  async stop(graceMs = 5_000): Promise<void> {
    if (!this.alive) return;
    killGroup(this.pid, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.exited,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          killGroup(this.pid, 'SIGKILL');
          resolve();
        }, graceMs);
      }),
    ]);
    clearTimeout(timer);
    await this.exited;
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

const running = new Set<ManagedProcess>();

/** SIGKILL every program started here that is still running. */
export function killAllNow(): void {
  for (const p of running) killGroup(p.pid, 'SIGKILL');
}

let lastResortInstalled = false;

/**
 * A last resort for a test run that ends without its `after` hooks (an
 * uncaught exception, Ctrl-C, a CI timeout): no program started here outlives
 * the Node process. Programs that stop gracefully install their own signal
 * handlers instead and keep only the `exit` hook (`signals: false`).
 */
export function killAllOnExit(options: { signals: boolean } = { signals: true }): void {
  if (lastResortInstalled) return;
  lastResortInstalled = true;
  process.once('exit', killAllNow);
  if (!options.signals) return;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAllNow();
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
}
