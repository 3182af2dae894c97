// The files that import packages needing Node 22 (scripts/node22-dev-dependencies.json):
// the Node 20 TypeScript projects leave them out (the `exclude` of their
// tsconfig.json, read here so that the list is written once), and the
// tsconfig.node22.json beside each builds them in the Node 24 tree, where those
// packages are installed. eslint.config.js lints them there, with those projects.
//
//   node scripts/node22-files.mjs   prints the globs, one a line (scripts/compat-otel3.sh)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The projects with files that need Node 22, relative to the repository root. */
const PROJECTS = ['packages/instrumentation', 'bench'];

/** Per project: its tsconfig.node22.json and the globs (from the root) of the files only it builds. */
export function node22Projects(root = ROOT) {
  return PROJECTS.map((dir) => {
    const file = join(root, dir, 'tsconfig.json');
    const { config, error } = ts.readConfigFile(file, (p) => ts.sys.readFile(p));
    if (error !== undefined) throw new Error(`node22-files: cannot read ${file}`);
    const exclude = config.exclude ?? [];
    if (exclude.length === 0) throw new Error(`node22-files: ${file} excludes nothing`);
    return { project: `${dir}/tsconfig.node22.json`, files: exclude.map((g) => `${dir}/${g}`) };
  });
}

/** Whether every package of scripts/node22-dev-dependencies.json is installed at `root`. */
export function node22PackagesInstalled(root = ROOT) {
  const manifest = JSON.parse(
    readFileSync(join(root, 'scripts/node22-dev-dependencies.json'), 'utf8'),
  );
  return Object.keys(manifest.devDependencies).every((name) =>
    existsSync(join(root, 'node_modules', name, 'package.json')),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { files } of node22Projects()) for (const glob of files) console.log(glob);
}
