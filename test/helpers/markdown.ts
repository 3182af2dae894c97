import { readFileSync } from 'node:fs';

/**
 * The fenced code block that follows `<!-- example: NAME ... -->` in a
 * markdown file. Docs mark their runnable examples this way so a test can run
 * exactly what a reader copies.
 */
export function exampleBlock(file: string, name: string): string {
  const text = readFileSync(file, 'utf8');
  const marker = text.indexOf(`<!-- example: ${name}`);
  if (marker < 0) throw new Error(`${file} has no example named ${name}`);
  const fence = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(marker));
  if (!fence?.[1]) throw new Error(`${file}: example ${name} has no code block`);
  return fence[1];
}
