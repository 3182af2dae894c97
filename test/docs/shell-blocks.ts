import { readFileSync } from 'node:fs';

/**
 * The `sh` and `bash` fenced blocks of a markdown file, with what the line
 * right before each fence (blank lines aside) asks of the docs-commands test:
 *   <!-- docs-commands: skip — <reason> -->
 * Any other `docs-commands:` comment is an error, so a mistyped marker is
 * not silently run (or silently skipped).
 */
export interface ShellBlock {
  /** Path relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The commands, one logical line each (a trailing `\` joins the next line). */
  commands: ShellCommand[];
  /** Why the block is not run, from its marker. */
  skip?: string;
}

export interface ShellCommand {
  /** 1-based line in the file where the command starts. */
  line: number;
  text: string;
}

const OPEN = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^\s*<!--\s*docs-commands:\s*(.*?)\s*-->\s*$/;
const SKIP = /^skip\s+[—–-]\s+(\S.*)$/;

export function shellBlocks(file: string, text = readFileSync(file, 'utf8')): ShellBlock[] {
  const lines = text.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = OPEN.exec(lines[i] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body: { line: number; text: string }[] = [];
    let end = i + 1;
    for (; end < lines.length && !close.test(lines[end] ?? ''); end += 1) {
      body.push({
        line: end + 1,
        text: (lines[end] ?? '').replace(new RegExp(`^ {0,${indent.length}}`), ''),
      });
    }
    if (info === 'sh' || info === 'bash') {
      const block: ShellBlock = { file, line: i + 1, commands: logicalLines(body) };
      let before = i - 1;
      while (before >= 0 && (lines[before] ?? '').trim() === '') before -= 1;
      const marker = MARKER.exec(lines[before] ?? '');
      if (marker) {
        const skip = SKIP.exec(marker[1] ?? '');
        if (!skip) {
          throw new Error(
            `${file}:${before + 1}: unknown docs-commands marker "${marker[1]}"; the one supported is ` +
              '<!-- docs-commands: skip — <reason> -->',
          );
        }
        block.skip = skip[1];
      }
      blocks.push(block);
    }
    i = end;
  }
  return blocks;
}

/** Joins `\` continuations; drops blank lines and whole-line comments. */
function logicalLines(body: { line: number; text: string }[]): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let pending: ShellCommand | undefined;
  for (const { line, text } of body) {
    const current: ShellCommand = pending ?? { line, text: '' };
    const continues = /\\\s*$/.test(text);
    current.text += continues ? text.replace(/\\\s*$/, '') : text;
    if (continues) {
      pending = current;
      continue;
    }
    pending = undefined;
    const trimmed = current.text.trim();
    if (trimmed !== '' && !trimmed.startsWith('#'))
      commands.push({ line: current.line, text: trimmed });
  }
  if (pending && pending.text.trim() !== '')
    commands.push({ line: pending.line, text: pending.text.trim() });
  return commands;
}
