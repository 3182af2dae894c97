import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../helpers/repo.js';

const run = promisify(execFile);

// Every JavaScript block in docs/ must at least parse as a module, so a
// renamed option or a half-edited example cannot sit in the docs unnoticed.
// Examples that can run are run by the tests named next to them.
const docsDir = join(repoRoot, 'docs');
const blocks = readdirSync(docsDir)
  .filter((name) => name.endsWith('.md'))
  .flatMap((name) =>
    [...readFileSync(join(docsDir, name), 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map(
      (m, i) => ({ name: `${name}#${i + 1}`, code: m[1] ?? '' }),
    ),
  );

describe('JavaScript in docs/', () => {
  it('has examples to check', () => {
    expect(blocks.length).to.be.greaterThan(0);
  });

  for (const block of blocks) {
    it(`${block.name} parses as an ES module`, async () => {
      const dir = join(repoRoot, 'build/test/docs/examples');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${block.name.replace(/[^\w]/g, '_')}.mjs`);
      writeFileSync(file, block.code);
      await run(process.execPath, ['--check', file]);
    });
  }
});
