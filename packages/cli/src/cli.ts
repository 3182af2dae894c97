import { ExitCode, UsageError, type CommandIo } from './io.js';
import { reportCommand } from './report/report-command.js';

export const MAIN_HELP = `Usage: argcheck <command> [options]

Commands:
  demo             the whole idea on real parts, in about a minute (npm start)
  report FILE...   emitted-value and mismatch-shape tables from sampled log records

Run "argcheck <command> --help" for the options of a command.
`;

type Command = (argv: readonly string[], io: CommandIo) => Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
  // Loaded only when it runs: `argcheck report` loads nothing of the demo's
  // OpenTelemetry SDK, MCP SDK or zod (docs/decisions/0030-demo-dependencies-and-node22-packages.md).
  demo: async (argv, io) => (await import('./demo/demo-command.js')).demoCommand(argv, io),
  report: reportCommand,
};

/** Runs one command line and resolves to the exit code; never throws. */
export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(MAIN_HELP);
    return name === undefined ? ExitCode.USAGE : ExitCode.OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (!command) throw new UsageError(`unknown command "${name}"`);
    return await command(rest, io);
  } catch (err) {
    // parseArgs reports unknown flags with a code rather than a class of its own.
    const code = (err as { code?: unknown }).code;
    if (
      err instanceof UsageError ||
      (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
    ) {
      io.stderr.write(`argcheck: ${(err as Error).message}\nRun "argcheck --help" for usage.\n`);
      return ExitCode.USAGE;
    }
    io.stderr.write(`argcheck: ${(err as Error).stack ?? String(err)}\n`);
    return ExitCode.FAILED;
  }
}
