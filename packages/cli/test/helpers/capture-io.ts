import type { CommandIo } from '../../src/io.js';

export interface CapturedIo extends CommandIo {
  out(): string;
  err(): string;
}

/** A CommandIo that keeps what a command writes, for whole-output assertions. */
export function captureIo(isTTY = false): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    stdout: { write: (text: string) => out.push(text), isTTY },
    stderr: { write: (text: string) => err.push(text) },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
