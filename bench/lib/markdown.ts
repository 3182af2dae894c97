// Markdown for generated documents, formatted with the repository's prettier
// configuration so that `npm run lint` (prettier --check) accepts it as written.
import { writeFileSync } from 'node:fs';
import * as prettier from 'prettier';

export type Cell = string | number;

const cell = (value: Cell): string => String(value).replaceAll('|', '\\|').replaceAll('\n', ' ');

const NUMERIC = /^(|—|[-+]?[\d.,]+ ?[×%]?)$/;

/** A GitHub table; columns of numbers are right-aligned. */
export function table(head: readonly Cell[], rows: readonly (readonly Cell[])[]): string {
  const right = head.map((_, i) => rows.every((r) => NUMERIC.test(String(r[i] ?? ''))));
  return [
    `| ${head.map(cell).join(' | ')} |`,
    `| ${right.map((r) => (r ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** Format `text` as prettier would for `path`, and write it there. */
export async function writeFormatted(path: string, text: string): Promise<string> {
  const options = (await prettier.resolveConfig(path)) ?? {};
  const formatted = await prettier.format(text, { ...options, filepath: path });
  writeFileSync(path, formatted);
  return formatted;
}
