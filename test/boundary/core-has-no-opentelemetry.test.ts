import { expect } from 'chai';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The core must stay usable without OpenTelemetry: proven from the manifest
// and from what the compiler actually emitted, not from the sources alone.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const core = join(root, 'packages/core');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('@argcheck/core boundary', () => {
  it('declares no @opentelemetry dependency of any kind', () => {
    const manifest = JSON.parse(readFileSync(join(core, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const field of [
      'dependencies',
      'peerDependencies',
      'optionalDependencies',
      'devDependencies',
    ]) {
      const deps = Object.keys((manifest[field] as Record<string, string> | undefined) ?? {});
      expect(
        deps.filter((d) => d.startsWith('@opentelemetry/')),
        field,
      ).to.deep.equal([]);
    }
  });

  for (const build of ['build/src', 'build/cjs']) {
    it(`imports nothing from @opentelemetry in ${build}`, () => {
      const files = filesUnder(join(core, build)).filter((f) => /\.(c|m)?js$|\.d\.ts$/.test(f));
      expect(files.length).to.be.greaterThan(3);
      const offenders = files.filter((f) => readFileSync(f, 'utf8').includes('@opentelemetry/'));
      expect(offenders).to.deep.equal([]);
    });
  }
});
