import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory per test, removed afterwards; files are real so the streaming path runs. */
export function useTempDir(): { path(name: string, content?: string): string } {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'argcheck-cli-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    path(name, content) {
      const file = join(dir, name);
      if (content !== undefined) writeFileSync(file, content);
      return file;
    },
  };
}
