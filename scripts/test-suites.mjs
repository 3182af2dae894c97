// `npm test` after the build: every suite runs, whatever an earlier one did,
// and the last lines say how each ended. A suite that fails does not hide the
// results of those after it (`&&` would stop at the first).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const suites = [];
for (const dir of readdirSync(join(root, 'packages')).sort()) {
  const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
  if (pkg.scripts?.test !== undefined) {
    suites.push({ name: pkg.name, args: ['run', 'test', '--workspace', `packages/${dir}`] });
  }
}
if (manifest.scripts['test:integration'] !== undefined) {
  suites.push({ name: 'integration (test/)', args: ['run', 'test:integration'] });
}

const results = suites.map((suite) => {
  const started = Date.now();
  const run = spawnSync('npm', suite.args, { cwd: root, stdio: 'inherit' });
  const code = run.status ?? 1;
  return { ...suite, code, seconds: Math.round((Date.now() - started) / 1000) };
});

console.log('\nnpm test, suite by suite:');
for (const r of results) {
  console.log(
    `  ${r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`}  ${r.name}  ${r.seconds} s`,
  );
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
