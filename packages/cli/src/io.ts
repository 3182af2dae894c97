/** Where a command writes; the process streams in the binary, collectors in tests. */
export interface CommandIo {
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** Exit codes shared by every command (documented in docs/cli.md). */
export const ExitCode = {
  OK: 0,
  /** `report`: no input file could be read. `demo`: the demo could not start or failed. */
  FAILED: 1,
  /** Unknown command, unknown flag or a flag value out of range. */
  USAGE: 2,
  /** `demo`: stopped with Ctrl-C; the figures so far were printed. */
  INTERRUPTED: 130,
} as const;

/** A command-line mistake; the message says what to change. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
