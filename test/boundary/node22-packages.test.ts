import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../helpers/repo.js';

// The packages that need Node 22 are installed in the Node 24 tree only, and
// the files that import them are built there, by the tsconfig.node22.json of
// their project (docs/decisions/0030-demo-dependencies-and-node22-packages.md).
// No file may fall between the two: every file the Node 20 project leaves out
// is one its Node 22 project builds.

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as Record<string, unknown>;
}

/** The files of a tsconfig, relative to the repository root, and its `exclude` patterns. */
function project(path: string): { files: string[]; exclude: string[] } {
  const file = join(repoRoot, path);
  const { config } = ts.readConfigFile(file, (p) => ts.sys.readFile(p)) as {
    config: { exclude?: string[] };
  };
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(file), undefined, file);
  return {
    files: parsed.fileNames.map((f) => relative(repoRoot, f)).sort(),
    exclude: config.exclude ?? [],
  };
}

/** The files an `exclude` pattern of `dir`'s tsconfig.json matches, relative to the root. */
function matched(dir: string, pattern: string): string[] {
  // As an include, a pattern must end in a file name: `a/**` excludes what `a/**/*` includes.
  const include = pattern.endsWith('/**') ? `${pattern}/*` : pattern;
  return ts.sys
    .readDirectory(join(repoRoot, dir), ['.ts'], undefined, [include])
    .map((f) => relative(repoRoot, f))
    .sort();
}

const node22 = readJson('scripts/node22-dev-dependencies.json').devDependencies as Record<
  string,
  string
>;
const root = readJson('package.json');

describe('packages that need Node 22', () => {
  it('are not root devDependencies, nor dependencies', () => {
    const rootNames = [root.dependencies, root.devDependencies].flatMap((d) =>
      Object.keys((d as Record<string, string> | undefined) ?? {}),
    );
    expect(Object.keys(node22).filter((name) => rootNames.includes(name))).to.deep.equal([]);
  });

  it('include every framework whose version tests are built in the Node 24 tree', () => {
    const { frameworks } = readJson('scripts/framework-versions.json') as {
      frameworks: { package: string; build?: string }[];
    };
    const built = frameworks.filter((f) => f.build === '.cache/otel3').map((f) => f.package);
    expect(built).to.have.length.greaterThan(0);
    expect(built.filter((name) => !(name in node22))).to.deep.equal([]);
  });

  for (const dir of ['packages/instrumentation', 'bench']) {
    it(`${dir}: every file tsconfig.json leaves out, tsconfig.node22.json builds`, () => {
      const node20 = project(`${dir}/tsconfig.json`);
      const withNode22 = project(`${dir}/tsconfig.node22.json`);
      expect(node20.exclude).to.have.length.greaterThan(0);
      for (const pattern of node20.exclude) {
        const files = matched(dir, pattern);
        expect(files, `${dir}: "${pattern}" matches no file`).to.have.length.greaterThan(0);
        expect(files.filter((f) => node20.files.includes(f))).to.deep.equal([]);
        expect(files.filter((f) => !withNode22.files.includes(f))).to.deep.equal([]);
      }
    });
  }
});
