// The consumer test: what a user gets from the registry, tried as a user
// would. Packs @argcheck/core, @argcheck/instrumentation and @argcheck/cli,
// then for every examples/<name>/ makes a fresh application in the system's
// temporary directory (outside the workspace, so nothing resolves to the
// repository), installs the packed packages there next to the example's own
// dependencies, and runs its main.mjs — with Node 24 when the example's
// `engines.node` asks for 22 or later. Then the command line, as someone adds
// it (CLI_APPS): to an empty application, and beside an application's own
// OpenTelemetry of either line. Exits non-zero if any of them fails.
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

/**
 * The packed command line added to an application as a user adds it: the
 * application's own packages first, then the three tarballs, then the whole
 * application installed afresh. npm must place them without overriding a peer
 * dependency or picking a version the running Node does not support, with one
 * `@opentelemetry/api` in the tree and none of `absent`; `npx argcheck report
 * --help` and a short demo then run there
 * (docs/decisions/0030-demo-dependencies-and-node22-packages.md).
 */
const CLI_APPS = [
  // `npx argcheck demo` with nothing else installed: the demo's dependencies come with it.
  { name: 'cli-alone', node: 20, dependencies: {}, absent: [] },
  { name: 'cli-alone-node24', node: 24, dependencies: {}, absent: [] },
  {
    name: 'cli-beside-otel2',
    node: 20,
    dependencies: { '@opentelemetry/api': '~1.9.0', '@opentelemetry/sdk-node': '^0.223.0' },
    absent: [],
  },
  {
    name: 'cli-beside-otel3',
    node: 24,
    dependencies: { '@opentelemetry/api': '~1.10.0', '@opentelemetry/sdk-node': '~0.301.0' },
    // The 2.x logs API, which the CLI's old pins hoisted into 3.x applications.
    absent: ['@opentelemetry/api-logs'],
  },
];
/** What npm prints when it places a package against what the tree or the running Node allows. */
const INSTALL_WARNINGS = /ERESOLVE|overriding peer dependency|EBADENGINE/;

const wanted = process.argv.slice(2);
const examples = readdirSync(join(root, 'examples'))
  .filter((name) => existsSync(join(root, 'examples', name, 'main.mjs')))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();
const cliApps = CLI_APPS.filter((a) => wanted.length === 0 || wanted.includes(a.name));
if (examples.length + cliApps.length === 0) {
  throw new Error(`consumer-test: nothing to run for ${wanted.join(', ')}`);
}

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
/** Why the CLI in `app` is not as CLI_APPS says, or nothing. */
function cliProblems(app, env, absent) {
  const problems = [];
  const query = (selector) =>
    JSON.parse(sh('npm', ['query', selector], { cwd: app, env })).map((n) => n.version);
  const api = query('#@opentelemetry/api');
  if (api.length !== 1) problems.push(`@opentelemetry/api: ${api.length} copies (${api})`);
  for (const name of absent) {
    const found = query(`#${name}`);
    if (found.length > 0) problems.push(`${name} installed (${found})`);
  }
  const ls = spawnSync('npm', ['ls', '--all'], { cwd: app, env, encoding: 'utf8' });
  if (ls.status !== 0) problems.push(`npm ls --all exited ${ls.status}:\n${ls.stderr}`);
  const help = spawnSync('npx', ['argcheck', 'report', '--help'], {
    cwd: app,
    env,
    encoding: 'utf8',
  });
  if (help.status !== 0 || !help.stdout.startsWith('Usage: argcheck report')) {
    problems.push(
      `npx argcheck report --help exited ${help.status}:\n${help.stdout}${help.stderr}`,
    );
  }
  const demo = spawnSync('npx', ['argcheck', 'demo', '--duration', '2'], {
    cwd: app,
    env,
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
  });
  if (
    demo.status !== 0 ||
    !/^Calls, retries included:\n {2}refund_order: [\d,]+ sent/m.test(demo.stdout)
  ) {
    problems.push(
      `npx argcheck demo --duration 2 exited ${demo.status}:\n${demo.stdout}${demo.stderr}`,
    );
  }
  return problems;
}

for (const { name, node, dependencies, absent } of cliApps) {
  const app = join(work, name);
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name, private: true, type: 'module', dependencies }, null, 2),
  );
  const env = { ...process.env };
  if (node > 20) env.PATH = `${node24()}:${env.PATH}`;
  const started = Date.now();
  const install = (args) =>
    spawnSync('npm', ['install', '--no-audit', '--no-fund', ...args], {
      cwd: app,
      env,
      encoding: 'utf8',
    });
  const installs = [];
  if (Object.keys(dependencies).length === 0) {
    installs.push(install(Object.values(tarballs)));
  } else {
    // Added to the installed application, then the whole of it installed afresh
    // (as a clone of it is): npm places the packages differently in each.
    installs.push(install([]), install(Object.values(tarballs)));
    rmSync(join(app, 'node_modules'), { recursive: true, force: true });
    rmSync(join(app, 'package-lock.json'), { force: true });
    installs.push(install([]));
  }
  const output = installs.map((i) => `${i.stdout}${i.stderr}`).join('');
  const problems = installs.some((i) => i.status !== 0)
    ? [`npm install failed:\n${output}`]
    : [
        ...output
          .split('\n')
          .filter((line) => INSTALL_WARNINGS.test(line))
          .slice(0, 20),
        ...cliProblems(app, env, absent),
      ];
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const nodeVersion = spawnSync('node', ['--version'], { env, encoding: 'utf8' }).stdout.trim();
  if (problems.length === 0) {
    passed++;
    console.log(`ok   ${name} (node ${nodeVersion}, ${seconds} s)`);
  } else {
    failed++;
    console.log(`FAIL ${name} (node ${nodeVersion})`);
    console.log(problems.join('\n').trim().replace(/^/gm, '     '));
  }
}

if (failed === 0) rmSync(work, { recursive: true, force: true });
else console.log(`consumer-test: the failing applications are kept in ${work}`);
console.log(`consumer: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
