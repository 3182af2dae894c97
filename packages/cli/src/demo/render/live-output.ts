import type { CommandIo } from '../../io.js';

/** Where the live display goes: redrawn in place on a terminal, plain lines otherwise. */
export interface LiveOutput {
  /** A line that stays (a phase starting): printed above the live display. */
  event(line: string): void;
  /** Replace the live display (terminal only; ignored on plain output). */
  frame(lines: readonly string[]): void;
  /** A progress line for plain output (ignored on a terminal, where the frame shows it). */
  plain(line: string): void;
  /** Leave the last frame on screen and restore the cursor. */
  end(): void;
}

const ESC = '\u001b[';

export function createLiveOutput(stream: CommandIo['stdout'], interactive: boolean): LiveOutput {
  if (!interactive) {
    return {
      event: (line) => void stream.write(`${line}\n`),
      frame: () => undefined,
      plain: (line) => void stream.write(`${line}\n`),
      end: () => undefined,
    };
  }
  let shown = 0;
  let last: readonly string[] = [];
  const erase = (): void => {
    // Cursor to the start of the frame's first line, then clear to the end of the screen.
    if (shown > 0) stream.write(`${ESC}${shown}F${ESC}0J`);
    shown = 0;
  };
  const draw = (lines: readonly string[]): void => {
    stream.write(lines.map((line) => `${line}\n`).join(''));
    shown = lines.length;
  };
  stream.write(`${ESC}?25l`);
  return {
    event(line) {
      erase();
      stream.write(`${line}\n`);
      draw(last);
    },
    frame(lines) {
      erase();
      last = lines;
      draw(lines);
    },
    plain: () => undefined,
    end() {
      stream.write(`${ESC}?25h`);
    },
  };
}
