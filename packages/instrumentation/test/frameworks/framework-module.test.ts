import { expect } from 'chai';
import type { DiagLogger } from '@opentelemetry/api';
import { frameworkDefinition, inRange } from '../../src/frameworks/framework-module.js';

function recordingDiag(): DiagLogger & { warnings: string[] } {
  const warnings: string[] = [];
  const none = () => undefined;
  return {
    warnings,
    warn: (message: string) => void warnings.push(message),
    error: none,
    info: none,
    debug: none,
    verbose: none,
  };
}

describe('framework module definitions', () => {
  it('inRange: lowest included, below excluded, pre-releases and junk outside', () => {
    const range = { lowest: '0.19.0', below: '0.21.0' };
    const results = ['0.18.9', '0.19.0', '0.20.7', '0.21.0', '1.0.0', 'x', undefined].map((v) =>
      inRange(v, range),
    );
    expect(results).to.deep.equal([false, true, true, false, false, false, false]);
  });

  it('patches a supported version; leaves any other unpatched and reports it once through diag', () => {
    const patched: unknown[] = [];
    const diag = recordingDiag();
    const definition = frameworkDefinition(
      {
        packageName: '@example/framework',
        range: { lowest: '1.0.0', below: '2.0.0' },
        files: ['dist/a.js', 'dist/a.mjs'],
        patch: (exports) => void patched.push(exports),
        unpatch: () => undefined,
      },
      diag,
    );
    expect(definition.files.map((f) => f.name)).to.deep.equal([
      '@example/framework/dist/a.js',
      '@example/framework/dist/a.mjs',
    ]);
    const [cjs, esm] = definition.files as [
      (typeof definition.files)[number],
      (typeof definition.files)[number],
    ];
    const a = { build: 'cjs' };
    const b = { build: 'esm' };
    expect(cjs.patch(a, '2.1.0')).to.equal(a);
    expect(esm.patch(b, '2.1.0')).to.equal(b);
    expect(cjs.patch(a, '1.4.0')).to.equal(a);
    expect(patched).to.deep.equal([a]);
    expect(diag.warnings).to.deep.equal([
      'argcheck: @example/framework 2.1.0 is outside the supported range >=1.0.0 <2.0.0; ' +
        'its tool calls are not checked. Use a supported version, or the explicit entry point ' +
        '(docs/frameworks.md).',
    ]);
  });
});
