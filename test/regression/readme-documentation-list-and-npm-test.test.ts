import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repo.js';

// Defects a new user met in README.md: its documentation list linked neither
// docs/configuration.md nor docs/telemetry.md, and it said `npm test` ran every
// suite while the pipeline and end-to-end suites (and now the local stack's)
// run only under their own scripts.

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const scripts = (
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('regression: README.md left out docs and overstated npm test', () => {
  for (const doc of readdirSync(join(repoRoot, 'docs')).filter((n) => n.endsWith('.md'))) {
    it(`links docs/${doc}`, () => {
      expect(readme).to.include(`(docs/${doc})`);
    });
  }

  it('does not say npm test runs every suite', () => {
    const lines = readme.split('\n').filter((l) => /^npm test\b/.test(l));
    expect(lines).to.not.be.empty;
    for (const line of lines) expect(line).to.not.match(/every suite|all suites/i);
  });

  it('lists each suite npm test leaves out, with its own script', () => {
    const skipped = [
      ...scripts['test:integration']!.matchAll(/--ignore "build\/test\/(\w+)\/\*\*"/g),
    ].map((m) => m[1]!);
    expect(skipped.sort()).to.deep.equal(['e2e', 'pipeline', 'stack']);
    for (const suite of skipped) {
      expect(scripts[`test:${suite}`], `a test:${suite} script`).to.be.a('string');
      expect(readme).to.match(new RegExp(`^npm run test:${suite}\\b`, 'm'));
    }
  });
});
