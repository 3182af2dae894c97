import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../helpers/repo.js';

// Benchmarks and the soak load what a user can load: the packages' public
// entry points (their `exports`), declared third-party packages, Node, and
// their own files. An import of a package's build/src or build/test would
// break silently on a rename; here it fails `npm test`.

const TREES = ['bench', 'soak'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

const rootManifest = readJson(join(repoRoot, 'package.json'));
// The packages that need Node 22 are declared for the Node 24 tree, which
// builds the files that import them (docs/decisions/0030-demo-dependencies-and-node22-packages.md).
const node22Manifest = readJson(join(repoRoot, 'scripts/node22-dev-dependencies.json'));
const declared = new Set(
  [rootManifest.dependencies, rootManifest.devDependencies, node22Manifest.devDependencies].flatMap(
    (deps) => Object.keys((deps as Record<string, string> | undefined) ?? {}),
  ),
);

/** `@argcheck/<name>` → the subpaths its package.json exports (`.`, `./views`). */
const publicEntries = new Map(
  readdirSync(join(repoRoot, 'packages')).map((dir) => {
    const manifest = readJson(join(repoRoot, 'packages', dir, 'package.json'));
    const exports = Object.keys((manifest.exports as Record<string, unknown> | undefined) ?? {});
    return [manifest.name as string, exports.filter((e) => e !== './package.json')] as const;
  }),
);

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** What is wrong with `specifier` imported from `file` (a path relative to the root), if anything. */
function importProblem(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return undefined;
  if (specifier.startsWith('.')) {
    const target = relative(repoRoot, resolve(repoRoot, dirname(file), specifier));
    const tree = target.split(sep)[0] ?? '';
    return TREES.includes(tree) ? undefined : `reaches outside bench/ and soak/ (${target})`;
  }
  const name = packageName(specifier);
  const entries = publicEntries.get(name);
  if (entries !== undefined) {
    const subpath = `.${specifier.slice(name.length)}`;
    return entries.includes(subpath) ? undefined : `is not an entry point ${name} exports`;
  }
  return declared.has(name) ? undefined : `${name} is not a declared dependency`;
}

function problemsIn(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.flatMap(({ fileName }) => {
    const problem = importProblem(file, fileName);
    return problem === undefined ? [] : [`${file}: '${fileName}' ${problem}`];
  });
}

describe('bench/ and soak/ boundary', () => {
  const files = TREES.flatMap((tree) => filesUnder(join(repoRoot, tree))).map((f) =>
    relative(repoRoot, f),
  );
  const sources = files.filter((f) => f.endsWith('.ts'));

  it('are TypeScript: no JavaScript file to escape the type check', () => {
    expect(sources.length).to.be.greaterThan(5);
    expect(files.filter((f) => /\.(c|m)?js$/.test(f))).to.deep.equal([]);
  });

  it('import only public entry points, declared packages, Node and their own files', () => {
    const problems = sources.flatMap((f) => problemsIn(f, readFileSync(join(repoRoot, f), 'utf8')));
    expect(problems).to.deep.equal([]);
  });

  it('would catch an import of a package internal, a test, or an undeclared package', () => {
    const text = [
      "import { compileValueSet } from '../packages/core/build/src/match/compile-value-set.js';",
      "import { seededRandom } from '@argcheck/core/build/test/match/realistic-ids.js';",
      "import { createAgent } from '../../packages/cli/build/src/demo/agent.js';",
      "const late = await import('../test/helpers/wait.js');",
      "import { thing } from 'left-pad';",
      "import { staticValueSet } from '@argcheck/core';",
      "import { argcheckViews } from '@argcheck/instrumentation/views';",
      "import { MeterProvider } from '@opentelemetry/sdk-metrics';",
      "import { median } from './lib/stats.js';",
      "import { num } from '../bench/lib/report.js';",
    ].join('\n');
    expect(problemsIn('bench/x.ts', text)).to.deep.equal([
      "bench/x.ts: '../packages/core/build/src/match/compile-value-set.js' reaches outside bench/ and soak/ (packages/core/build/src/match/compile-value-set.js)",
      "bench/x.ts: '@argcheck/core/build/test/match/realistic-ids.js' is not an entry point @argcheck/core exports",
      "bench/x.ts: '../../packages/cli/build/src/demo/agent.js' reaches outside bench/ and soak/ (../packages/cli/build/src/demo/agent.js)",
      "bench/x.ts: '../test/helpers/wait.js' reaches outside bench/ and soak/ (test/helpers/wait.js)",
      "bench/x.ts: 'left-pad' left-pad is not a declared dependency",
    ]);
  });
});
