import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { MAIN_HELP } from '../../src/cli.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { recordFigure } from '@argcheck/testing/figures';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('../../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  files: string[];
};
const bin = join(PACKAGE_DIR, manifest.bin['argcheck'] ?? '');

describe('regression: the argcheck bin pointed at the build, which npm ci links before it exists', () => {
  const dir = useTempDir();

  it('is a file of the package sources, outside build/, and published', () => {
    const path = relative(PACKAGE_DIR, bin);
    expect(path.startsWith('build')).to.equal(false);
    expect(existsSync(bin)).to.equal(true);
    expect(manifest.files).to.include(path);
    recordFigure(
      'bin-before-build',
      `bin \`${path}\`: outside build/, in the package’s published files`,
    );
  });

  it('runs the built command', async () => {
    const { stdout } = await run(process.execPath, [bin, '--help']);
    expect(stdout).to.equal(MAIN_HELP);
  });

  it('says to build first when the build is missing, exit 1', async () => {
    // The same file in a package without build/.
    mkdirSync(dir.path('bin'));
    copyFileSync(bin, dir.path('bin/argcheck.js'));
    writeFileSync(dir.path('package.json'), '{ "type": "module" }');
    const failed = await run(process.execPath, [dir.path('bin/argcheck.js'), 'demo']).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(
      failed && { code: failed.code, stdout: failed.stdout, stderr: failed.stderr },
    ).to.deep.equal({
      code: 1,
      stdout: '',
      stderr:
        'argcheck: the command is not built yet: run `npm run build` in the repository root\n',
    });
    recordFigure(
      'bin-before-build',
      `without a build: exit ${failed?.code}, “${failed?.stderr.trim()}”`,
    );
  });
});
