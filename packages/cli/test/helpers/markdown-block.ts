import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** docs/cli.md at the repository root, seen from build/test/<dir>/. */
export const CLI_DOC = fileURLToPath(new URL('../../../../../docs/cli.md', import.meta.url));

/** The fenced block after `<!-- example: NAME ... -->`, as a reader would copy it. */
export function exampleBlock(file: string, name: string): string {
  const text = readFileSync(file, 'utf8');
  const marker = text.indexOf(`<!-- example: ${name}`);
  if (marker < 0) throw new Error(`${file} has no example named ${name}`);
  const fence = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(marker));
  if (!fence?.[1]) throw new Error(`${file}: example ${name} has no code block`);
  return fence[1];
}
