// The consumer test: what a user gets from the registry, tried as a user
// would. Packs @argcheck/core, @argcheck/instrumentation and @argcheck/cli,
// then for every examples/<name>/ makes a fresh application in the system's
// temporary directory (outside the workspace, so nothing resolves to the
// repository), installs the packed packages there next to the example's own
// dependencies, and runs its main.mjs — with Node 24 when the example's
// `engines.node` asks for 22 or later. Exits non-zero if any example fails.
//
//   npm run test:consumer [-- name ...]
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const PACKAGES = {
  core: '@argcheck/core',
  instrumentation: '@argcheck/instrumentation',
  cli: '@argcheck/cli',
};
const RUN_TIMEOUT_MS = 180_000;

function sh(command, args, options = {}) {
  return execFileSync(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    ...options,
  });
}

/** Node 24 from the npm package node@24, as scripts/compat-otel3.sh installs it. */
function node24() {
  const bin = join(root, '.cache/node24/node_modules/node/bin');
  const ok = () =>
    spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout?.startsWith('v24.');
  if (!ok()) {
    sh('npm', [
      'install',
      '--prefix',
      join(root, '.cache/node24'),
      '--no-audit',
      '--no-fund',
      '--no-save',
      'node@24',
    ]);
  }
  if (!ok()) throw new Error(`consumer-test: no Node 24 binary in ${bin}`);
  return bin;
}

/** The lowest major an `engines.node` range starts at (`>=22.13` → 22); 20 when it says nothing. */
function minimumMajor(range) {
  const match = /(\d+)/.exec(range ?? '');
  return match ? Number(match[1]) : 20;
}

const wanted = process.argv.slice(2);
const examples = readdirSync(join(root, 'examples'))
  .filter((name) => existsSync(join(root, 'examples', name, 'main.mjs')))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();
if (examples.length === 0) throw new Error('consumer-test: no examples/*/main.mjs found');

const work = mkdtempSync(join(tmpdir(), 'argcheck-consumer-'));
const packs = join(work, 'packs');
mkdirSync(packs);
sh('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const tarballs = {};
for (const [dir, name] of Object.entries(PACKAGES)) {
  const out = JSON.parse(
    sh('npm', ['pack', '--json', '--pack-destination', packs], {
      cwd: join(root, 'packages', dir),
    }),
  );
  tarballs[name] = join(packs, out[0].filename);
}

let passed = 0;
let failed = 0;
for (const name of examples) {
  const manifest = JSON.parse(readFileSync(join(root, 'examples', name, 'package.json'), 'utf8'));
  const app = join(work, name);
  cpSync(join(root, 'examples', name), app, {
    recursive: true,
    filter: (src) => !src.includes('node_modules') && !src.endsWith('package-lock.json'),
  });
  const dependencies = { ...manifest.dependencies };
  for (const dep of Object.keys(dependencies)) {
    if (dep in tarballs) dependencies[dep] = `file:${tarballs[dep]}`;
    else if (String(dependencies[dep]).startsWith('file:')) {
      throw new Error(
        `consumer-test: examples/${name} depends on ${dep} by path; only argcheck's packages may be`,
      );
    }
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ ...manifest, dependencies }, null, 2));
  const env = { ...process.env };
  if (minimumMajor(manifest.engines?.node) > 20) env.PATH = `${node24()}:${env.PATH}`;
  const started = Date.now();
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: app,
    env,
    encoding: 'utf8',
  });
  const run =
    install.status === 0
      ? spawnSync('node', ['main.mjs'], {
          cwd: app,
          env,
          encoding: 'utf8',
          timeout: RUN_TIMEOUT_MS,
        })
      : install;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const nodeVersion = spawnSync('node', ['--version'], { env, encoding: 'utf8' }).stdout.trim();
  if (run.status === 0) {
    passed++;
    console.log(`ok   examples/${name} (node ${nodeVersion}, ${seconds} s)`);
  } else {
    failed++;
    console.log(
      `FAIL examples/${name} (node ${nodeVersion}, ${install.status === 0 ? 'main.mjs' : 'npm install'} exited ${run.status ?? run.signal})`,
    );
    console.log(`${run.stdout ?? ''}${run.stderr ?? ''}`.trim().replace(/^/gm, '     '));
  }
}
if (failed === 0) rmSync(work, { recursive: true, force: true });
else console.log(`consumer-test: the failing applications are kept in ${work}`);
console.log(`consumer: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
