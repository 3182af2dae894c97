/** Reading what `npm run stack` prints, and the commands docs/pipeline.md shows. */

/** The one command of a doc's code block. */
export function commandOf(block: string): string {
  const lines = block.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one command, got:\n${block}`);
  return lines[0]!;
}

/** Program name → pid, from the stack's `  NAME started (pid N)` lines. */
export function startedPids(lines: readonly string[]): Map<string, number> {
  const pids = new Map<string, number>();
  for (const line of lines) {
    const m = /^ {2}([\w-]+) started \(pid (\d+)\)$/.exec(line);
    if (m) pids.set(m[1]!, Number(m[2]));
  }
  return pids;
}

/** Whether a process with this id exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
