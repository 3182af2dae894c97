/**
 * `npm run stack`: the argcheck pipeline on this machine, at demo speed, in
 * one command. The collector (otel-collector.yaml), Prometheus with the
 * demo-speed copy of the rules, Alertmanager routed to the local alert
 * receiver, and the receiver itself, which prints every alert it gets. All
 * on loopback; Ctrl-C (or SIGTERM) stops every program by its id, as does
 * any of them failing to start or exiting on its own.
 */
import { createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { DEMO_DURATION_S, DEMO_SPEED, startDemoSpeedPipeline } from './demo-speed.js';
import type { Pipeline } from './pipeline.js';
import { busyDefaultPorts, DEFAULT_PORTS, freePorts, type StackPorts } from './ports.js';
import { killAllNow, killAllOnExit, ManagedProcess } from './processes.js';
import { alertmanagerBinary, collectorBinary, prometheusBinary, REPO_ROOT } from './programs.js';
import { waitFor } from './wait.js';

const HELP = `Usage: npm run stack [-- options]

Starts the argcheck collector, Prometheus (rules at demo speed), Alertmanager
and a local alert receiver on 127.0.0.1, prints their addresses, and prints
every alert the receiver gets. Then run the demo into it, in another terminal:

  npm start -- --otlp http://127.0.0.1:${DEFAULT_PORTS.otlpHttp} --duration ${DEMO_DURATION_S}

Ctrl-C stops everything.

Options:
  --free-ports   listen on free ports instead of the shipped defaults
                 (4317, 4318, 8888, 8889, 9090, 9093, 9095); also
                 ARGCHECK_STACK_FREE_PORTS=1
  --dir DIR      where the copies, storage and logs go (default: .argcheck/stack,
                 emptied at start)
  --speed N      one demo second stands for N production seconds (default: ${DEMO_SPEED})
  -h, --help     show this help
`;

interface Args {
  freePorts: boolean;
  dir: string;
  speed: number;
}

function parse(argv: string[]): Args | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      'free-ports': { type: 'boolean', default: false },
      dir: { type: 'string', default: join(REPO_ROOT, '.argcheck', 'stack') },
      speed: { type: 'string', default: String(DEMO_SPEED) },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return undefined;
  const speed = Number(values.speed);
  if (!Number.isFinite(speed) || speed < 1)
    throw new Error(`--speed must be a number >= 1, not "${values.speed}"`);
  return {
    freePorts: values['free-ports'] || process.env.ARGCHECK_STACK_FREE_PORTS === '1',
    dir: resolve(values.dir),
    speed,
  };
}

async function choosePorts(free: boolean): Promise<StackPorts> {
  if (free) return freePorts();
  const busy = await busyDefaultPorts();
  if (busy.length > 0) {
    throw new Error(
      `these ports are in use on 127.0.0.1: ${busy.join(', ')}. Stop what listens there ` +
        '(an earlier stack? `ss -ltnp` shows it), or run `npm run stack -- --free-ports`.',
    );
  }
  return { ...DEFAULT_PORTS };
}

/** Writes each program's output to DIR/<name>.log and shows the receiver's lines. */
class Output {
  private readonly files = new Map<string, WriteStream>();

  constructor(private readonly dir: string) {}

  line(program: string, line: string): void {
    let file = this.files.get(program);
    if (!file) {
      file = createWriteStream(join(this.dir, `${program}.log`), { flags: 'a' });
      this.files.set(program, file);
    }
    file.write(`${line}\n`);
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.files.values()].map((f) => new Promise<void>((done) => f.end(() => done()))),
    );
  }
}

const say = (text: string): void => console.log(text);

async function run(args: Args): Promise<number> {
  const binaries = {
    prometheus: prometheusBinary(),
    alertmanager: alertmanagerBinary(),
    collector: collectorBinary({ build: true }),
  };
  const ports = await choosePorts(args.freePorts);
  rmSync(args.dir, { recursive: true, force: true });
  mkdirSync(args.dir, { recursive: true });
  const output = new Output(args.dir);

  const stopSignal = new Promise<string>((resolveStop) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals): void => {
      signals += 1;
      // A second Ctrl-C while the programs are still stopping: kill them now.
      if (signals > 1) {
        killAllNow();
        process.exit(130);
      }
      resolveStop(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

  const receiverScript = fileURLToPath(new URL('./alert-receiver.js', import.meta.url));
  const receiver = new ManagedProcess(
    'alert-receiver',
    process.execPath,
    [receiverScript, '--port', String(ports.receiver)],
    {
      cwd: args.dir,
      onLine: (line) => {
        output.line('alert-receiver', line);
        if (line.trim() !== '') say(`alert-receiver │ ${line}`);
      },
    },
  );
  let pipeline: Pipeline | undefined;
  const stopAll = async (): Promise<void> => {
    await pipeline?.stop();
    await receiver.stop();
    await output.close();
  };

  say(`  ${receiver.name} started (pid ${receiver.pid})`);
  try {
    await waitFor(
      'the alert receiver to listen',
      () => {
        receiver.assertAlive();
        return receiver.log.includes('listening on') ? true : undefined;
      },
      {
        detail: () => receiver.describe(),
        giveUp: () =>
          receiver.alive
            ? undefined
            : new Error(`the alert receiver exited early\n${receiver.describe()}`),
      },
    );
    say(`starting the collector, Alertmanager and Prometheus (demo speed x${args.speed}) …`);
    pipeline = await startDemoSpeedPipeline({
      dir: args.dir,
      ports,
      binaries,
      webhookUrl: `http://127.0.0.1:${ports.receiver}/argcheck-alerts`,
      speed: args.speed,
      onLine: (program, line) => output.line(program, line),
      onStart: (program) => say(`  ${program.name} started (pid ${program.pid})`),
    });
  } catch (error) {
    await stopAll();
    throw error;
  }

  const started = [receiver, ...pipeline.processes];
  const rel = (path: string): string => relative(process.cwd(), path) || '.';
  say(
    [
      '',
      `argcheck local stack — rules at demo speed: 1 s here = ${args.speed} s in production`,
      `  OTLP/HTTP        http://127.0.0.1:${ports.otlpHttp}   (OTLP/gRPC 127.0.0.1:${ports.otlpGrpc})`,
      `  Prometheus       http://127.0.0.1:${ports.prometheus}   alerts: http://127.0.0.1:${ports.prometheus}/alerts`,
      `  Alertmanager     http://127.0.0.1:${ports.alertmanager}`,
      `  alert receiver   http://127.0.0.1:${ports.receiver}/argcheck-alerts   (its alerts appear below)`,
      `  collector        /metrics http://127.0.0.1:${ports.exporter}/metrics, own metrics :${ports.collectorSelf}`,
      `  rules            ${rel(pipeline.rulesFile)}`,
      `  log records      ${rel(pipeline.logFile)}   (argcheck report …)`,
      `  program output   ${rel(args.dir)}/*.log`,
      `  processes        ${started.map((p) => `${p.name} ${p.pid}`).join(', ')}`,
      '',
      'Now run the demo into it, in another terminal:',
      `  npm start -- --otlp http://127.0.0.1:${ports.otlpHttp} --duration ${DEMO_DURATION_S}`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );

  const died = Promise.race(started.map((p) => p.whenExited().then(() => p)));
  const outcome = await Promise.race([stopSignal, died]);
  let status = 0;
  if (outcome instanceof ManagedProcess) {
    console.error(
      `${outcome.name} exited on its own (${outcome.exit}); stopping the rest.\n${outcome.describe()}`,
    );
    status = 1;
  } else {
    say('stopping …');
  }
  await stopAll();
  say(`stopped: ${started.map((p) => `${p.name} ${p.pid} (${p.exit ?? 'running'})`).join(', ')}`);
  return status;
}

async function main(): Promise<void> {
  killAllOnExit({ signals: false });
  let args: Args | undefined;
  try {
    args = parse(process.argv.slice(2));
  } catch (error) {
    console.error(
      `npm run stack: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`,
    );
    process.exit(2);
  }
  if (!args) {
    say(HELP);
    return;
  }
  try {
    process.exitCode = await run(args);
  } catch (error) {
    console.error(`npm run stack: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
  // Signal handlers keep nothing alive; exit now that every program is stopped.
  process.exit();
}

await main();
