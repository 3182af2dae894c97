import { expect } from 'chai';
import { moduleDefinitions } from '../../src/kit/module-spec.js';
import { inRange } from '../../src/kit/version-range.js';
import { createScriptedEngine } from '../mcp/helpers/scripted-engine.js';

describe('module specs', () => {
  it('inRange: lowest included, below excluded, pre-releases of a supported version in, junk outside', () => {
    const range = { lowest: '0.19.0', below: '0.21.0' };
    const results = [
      '0.18.9',
      '0.19.0',
      '0.20.7',
      '0.20.0-rc.1',
      '0.21.0',
      '1.0.0',
      'x',
      undefined,
    ].map((v) => inRange(v, range));
    expect(results).to.deep.equal([false, true, true, true, false, false, false, false]);
  });

  it('patches a supported version; leaves any other unpatched and reports it once through diag', () => {
    const patched: unknown[] = [];
    const seen: string[] = [];
    const engine = createScriptedEngine();
    const host = { ...engine.host, seen: (integration: string) => void seen.push(integration) };
    const [definition] = moduleDefinitions(
      {
        integration: 'langchain',
        packageName: '@example/framework',
        range: { lowest: '1.0.0', below: '2.0.0' },
        files: ['dist/a.js', 'dist/a.mjs'],
        patch: (exports) => {
          patched.push(exports);
          return exports;
        },
        unpatch: () => undefined,
        explicit: 'inst.example()',
      },
      host,
    );
    expect(definition?.files.map((f) => f.name)).to.deep.equal([
      '@example/framework/dist/a.js',
      '@example/framework/dist/a.mjs',
    ]);
    const [cjs, esm] = definition?.files ?? [];
    const a = { build: 'cjs' };
    const b = { build: 'esm' };
    expect(cjs?.patch(a, '2.1.0')).to.equal(a);
    expect(esm?.patch(b, '2.1.0')).to.equal(b);
    expect(cjs?.patch(a, '1.4.0')).to.equal(a);
    expect(patched).to.deep.equal([a]);
    expect(seen).to.deep.equal(['langchain']);
    expect(engine.logged.filter((l) => l.level === 'warn').map((l) => l.args[0])).to.deep.equal([
      'argcheck: @example/framework 2.1.0 is outside the supported range >=1.0.0 <2.0.0; ' +
        'its tool calls are not checked. Use a supported version, or the explicit entry point ' +
        '(docs/frameworks.md).',
    ]);
  });

  it('hooks installed copies by absolute path, with the version their manifest gave', () => {
    const patched: unknown[] = [];
    const engine = createScriptedEngine();
    const definitions = moduleDefinitions(
      {
        integration: 'mcp',
        packageName: '@example/sdk',
        range: { lowest: '1.10.0', below: '2.0.0' },
        files: ['dist/cjs/client.js'],
        installs: [
          { version: '1.32.0', files: ['/app/node_modules/@example/sdk/dist/cjs/client.js'] },
          { version: '1.2.0', files: ['/old/node_modules/@example/sdk/dist/cjs/client.js'] },
        ],
        patch: (exports) => {
          patched.push(exports);
          return exports;
        },
        unpatch: () => undefined,
        explicit: 'inst.instrumentMcpClient(client)',
      },
      engine.host,
    );
    expect(definitions.map((d) => [d.name, d.files.map((f) => f.name)])).to.deep.equal([
      ['@example/sdk', ['@example/sdk/dist/cjs/client.js']],
      ['/app/node_modules/@example/sdk/dist/cjs/client.js', ['client']],
      ['/old/node_modules/@example/sdk/dist/cjs/client.js', ['client']],
    ]);
    const current = { copy: 'current' };
    const old = { copy: 'old' };
    // A hook by absolute path reports no version: the manifest's decides.
    definitions[1]?.files[0]?.patch(current, undefined);
    definitions[2]?.files[0]?.patch(old, undefined);
    expect(patched).to.deep.equal([current]);
  });
});
