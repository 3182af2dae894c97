import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../src/version.js';

const packageDir = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Modules a compiled file loads at run time (type-only imports are erased by the compiler). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from\s+|import\(|require\()\s*['"]([^'"]+)['"]/g)];
  return found.map((m) => m[1] as string);
}

describe('@argcheck/instrumentation package boundary', () => {
  it('names its scope after the manifest', () => {
    expect([PACKAGE_NAME, PACKAGE_VERSION]).to.deep.equal([manifest.name, manifest.version]);
  });

  it('takes OpenTelemetry from the application, as peer dependencies', () => {
    const regular = Object.keys(manifest.dependencies ?? {});
    expect(regular.filter((d) => d.startsWith('@opentelemetry/'))).to.deep.equal([]);
    expect(manifest.peerDependencies).to.deep.include({
      '@opentelemetry/api': '>=1.9.0 <1.11.0',
      '@opentelemetry/instrumentation': '^0.223.0 || ^0.301.0',
      '@opentelemetry/sdk-metrics': '^2.12.0 || ^3.1.0',
      '@openai/agents': '>=0.19.0 <0.21.0',
      '@langchain/core': '>=1.0.0 <2.0.0',
    });
    expect(manifest.peerDependenciesMeta).to.deep.include({
      '@opentelemetry/sdk-metrics': { optional: true },
      '@openai/agents': { optional: true },
      '@langchain/core': { optional: true },
    });
  });

  it('declares the agent frameworks it patches as optional peers, with the ranges it patches', () => {
    // The same ranges as frameworks/*/patch.ts; a version outside is left unpatched and reported.
    expect(manifest.peerDependencies).to.deep.include({
      ai: '>=7.0.0 <8',
      '@ai-sdk/mcp': '>=2.0.0 <3',
      '@mastra/core': '>=1.0.0 <2',
      '@anthropic-ai/claude-agent-sdk': '>=0.3.142 <0.4.0',
    });
    for (const name of ['ai', '@ai-sdk/mcp', '@mastra/core', '@anthropic-ai/claude-agent-sdk']) {
      expect(manifest.peerDependenciesMeta?.[name]).to.deep.equal({ optional: true });
    }
  });

  for (const build of ['build/src', 'build/cjs']) {
    it(`never imports an agent framework: they are patched when the application loads them (${build})`, () => {
      const files = filesUnder(join(packageDir, build)).filter((f) => f.endsWith('.js'));
      const frameworks = ['@openai/', '@langchain/', '@anthropic-ai/'];
      const found = files.flatMap((f) =>
        runtimeImports(f).filter((m) => frameworks.some((prefix) => m.startsWith(prefix))),
      );
      expect(found).to.deep.equal([]);
    });
  }

  for (const build of ['build/src', 'build/cjs']) {
    it(`loads sdk-metrics only from the views entry, and api-logs nowhere (${build})`, () => {
      const files = filesUnder(join(packageDir, build)).filter((f) => f.endsWith('.js'));
      expect(files.length).to.be.greaterThan(10);
      const loads = (module: string) =>
        files
          .filter((f) => runtimeImports(f).includes(module))
          .map((f) => f.slice(packageDir.length + build.length + 1));
      expect(loads('@opentelemetry/sdk-metrics')).to.deep.equal(['views.js']);
      expect(loads('@opentelemetry/api-logs')).to.deep.equal([]);
    });

    it(`never loads an agent framework by name; patches receive what the app loads (${build})`, () => {
      const files = filesUnder(join(packageDir, build)).filter((f) => f.endsWith('.js'));
      const frameworks = ['ai', '@ai-sdk/mcp', '@mastra/core', '@mastra/mcp'];
      const loading = files.filter((f) =>
        runtimeImports(f).some((m) => frameworks.some((fw) => m === fw || m.startsWith(`${fw}/`))),
      );
      expect(loading).to.deep.equal([]);
    });
  }
});
