#!/usr/bin/env node
// The `argcheck` command. It is a source file rather than the compiled
// program so that it exists when `npm ci` links the workspace's bins, which
// happens before anything is built (docs/decisions/0008-cli-bin-entry.md).
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const program = new URL('../build/src/bin.js', import.meta.url);
if (existsSync(program)) {
  await import(program.href);
} else {
  process.stderr.write(
    'argcheck: the command is not built yet: run `npm run build` in the repository root\n',
  );
  process.exitCode = 1;
}
