// The agent-framework version matrix: for each framework in
// scripts/framework-versions.json and each of its listed versions (the
// lowest and the highest supported), install that version into a scratch
// directory and run that framework's built tests against it.
//
// The scratch directory (.cache/versions/<name>@<version>) holds a copy of
// packages/instrumentation/build and a node_modules with the framework at
// that version (and its `with` packages) installed for real; every other
// package is a link to the workspace's node_modules, so nothing else is
// downloaded. The tests resolve the framework from the scratch copy. The
// tests of the frameworks whose packages need Node 22 are built in the Node 24
// tree (`build`: .cache/otel3, by scripts/compat-otel3.sh), where those
// packages are installed; their build is copied from there.
//
//   npm run test:versions [-- name ...]
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const matrix = JSON.parse(readFileSync(join(root, 'scripts/framework-versions.json'), 'utf8'));
const instrumentation = join(root, 'packages/instrumentation');

function node24() {
  const bin = join(root, '.cache/node24/node_modules/node/bin');
  const ok = () =>
    spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout?.startsWith('v24.');
  if (!ok()) {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        join(root, '.cache/node24'),
        '--no-audit',
        '--no-fund',
        '--no-save',
        'node@24',
      ],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  }
  if (!ok()) throw new Error(`framework-versions: no Node 24 binary in ${bin}`);
  return bin;
}

/** Link every package of the workspace's node_modules that the scratch install does not have. */
function linkTheRest(scratchModules) {
  const source = join(root, 'node_modules');
  for (const entry of readdirSync(source)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      mkdirSync(join(scratchModules, entry), { recursive: true });
      for (const pkg of readdirSync(join(source, entry))) {
        const target = join(scratchModules, entry, pkg);
        if (!existsSync(target)) symlinkSync(join(source, entry, pkg), target);
      }
    } else if (!existsSync(join(scratchModules, entry))) {
      symlinkSync(join(source, entry), join(scratchModules, entry));
    }
  }
}

function installedVersion(scratch, pkg) {
  return JSON.parse(readFileSync(join(scratch, 'node_modules', pkg, 'package.json'), 'utf8'))
    .version;
}

const wanted = process.argv.slice(2);
const rows = matrix.frameworks.filter((f) => wanted.length === 0 || wanted.includes(f.name));
if (rows.length === 0)
  throw new Error(`framework-versions: nothing to run for ${wanted.join(', ')}`);
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

let passed = 0;
let failed = 0;
for (const framework of rows) {
  for (const entry of framework.versions) {
    const { version, with: extra = [] } = typeof entry === 'string' ? { version: entry } : entry;
    const label = `${framework.package}@${version}`;
    const scratch = join(root, '.cache/versions', `${framework.name}@${version}`);
    const build = join(
      framework.build === undefined ? root : join(root, framework.build),
      'packages/instrumentation/build',
    );
    if (!existsSync(join(build, 'test'))) {
      failed++;
      console.log(
        `FAIL ${label}: its tests are built in ${framework.build}, which has no build yet: ` +
          'run `bash scripts/compat-otel3.sh` first',
      );
      continue;
    }
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(join(scratch, 'packages/instrumentation'), { recursive: true });
    cpSync(build, join(scratch, 'packages/instrumentation/build'), { recursive: true });
    cpSync(
      join(instrumentation, 'package.json'),
      join(scratch, 'packages/instrumentation/package.json'),
    );
    const dependencies = { [framework.package]: version };
    // A version's own `with` comes last, so it overrides the framework's.
    for (const spec of [...(framework.with ?? []), ...extra]) {
      const at = spec.lastIndexOf('@');
      dependencies[spec.slice(0, at)] = spec.slice(at + 1).replace('{version}', version);
    }
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ private: true, type: 'module', dependencies }, null, 2),
    );
    const env = { ...process.env };
    if (framework.node > 20) env.PATH = `${node24()}:${env.PATH}`;
    const started = Date.now();
    const install = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--legacy-peer-deps', '--loglevel=error'],
      {
        cwd: scratch,
        env,
        encoding: 'utf8',
      },
    );
    if (install.status !== 0) {
      failed++;
      console.log(`FAIL ${label}: npm install exited ${install.status}\n${install.stderr}`);
      continue;
    }
    linkTheRest(join(scratch, 'node_modules'));
    const mocha = join(root, 'node_modules/mocha/bin/mocha.js');
    const built = join(scratch, 'packages/instrumentation/build/test');
    const globs = [framework.tests].flat().map((glob) => join(built, glob));
    // The contract test's subject for this framework (ARGCHECK_CONTRACT_ONLY leaves the rest out).
    if (framework.contract !== undefined) globs.push(join(built, 'contract/*.test.js'));
    const run = spawnSync('node', [mocha, '--reporter', 'dot', ...globs], {
      cwd: scratch,
      // The framework is installed here: tests that would skip without it must fail instead.
      env: {
        ...env,
        ARGCHECK_CONTRACT_ONLY: framework.contract ?? '',
        ARGCHECK_REQUIRE_PACKAGE: framework.package,
      },
      encoding: 'utf8',
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const summary = /(\d+) passing[\s\S]*?(?:(\d+) failing)?/.exec(run.stdout ?? '');
    const installed = installedVersion(scratch, framework.package);
    if (run.status === 0 && installed === version) {
      passed++;
      console.log(`ok   ${label} (${summary?.[1] ?? '?'} tests, ${seconds} s)`);
    } else {
      failed++;
      console.log(`FAIL ${label} (installed ${installed}, mocha exited ${run.status})`);
      console.log(`${run.stdout}${run.stderr}`.trim().replace(/^/gm, '     '));
    }
  }
}
console.log(`versions: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
