import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repo.js';

// docs/decisions/README.md is the index a reader starts from: every record
// is in it, with the number and title its own heading gives, and it names no
// record that is not there.
const dir = join(repoRoot, 'docs/decisions');
const records = readdirSync(dir)
  .filter((name) => /^\d{4}-.*\.md$/.test(name))
  .sort();
const index = readFileSync(join(dir, 'README.md'), 'utf8');

describe('docs/decisions/README.md', () => {
  it('has records to index', () => {
    expect(records.length).to.be.greaterThan(20);
  });

  for (const name of records) {
    it(`lists ${name} with its heading's title`, () => {
      const heading = readFileSync(join(dir, name), 'utf8').split('\n')[0] ?? '';
      const match = /^# (\d{4}) — (.+)$/.exec(heading);
      expect(match, `${name} starts with "# NNNN — title"`).to.not.equal(null);
      const [, number, title] = match as RegExpExecArray;
      expect(index).to.include(`[${number}](${name})`);
      expect(index).to.include(`| ${title}`);
    });
  }

  it('links only to records that exist', () => {
    const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((m) => m[1]);
    expect(linked.filter((name) => !records.includes(name as string))).to.deep.equal([]);
  });
});
