import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  InstrumentationBase,
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import { ToolArgumentInstrumentation } from '../../../src/instrumentation.js';
import { findSdkInstalls } from '../../../src/integrations/mcp/sdk-location.js';
import { hookedPaths } from '../../../src/kit/path-hooks.js';

/**
 * @modelcontextprotocol/sdk 1.32.x maps its CommonJS entry to dist/cjs/index.js
 * and does not ship that file. require-in-the-middle resolves a package's entry
 * to tell its main module from its internal files; when that fails it skips
 * every file hook in the package, silently. These tests pin the trap and the
 * way around it (hooking the client file by absolute path).
 */
const require = createRequire(import.meta.url);
const [install] = findSdkInstalls([join(process.cwd(), 'x.js')]);
const CJS_CLIENT = '@modelcontextprotocol/sdk/client/index.js';

/** One by-name definition with one file hook, the way most instrumentations write it. */
class ByNameFileHook extends InstrumentationBase {
  private static next: { pkg: string; file: string; fired: string[] } | undefined;

  constructor(pkg: string, file: string, fired: string[]) {
    ByNameFileHook.next = { pkg, file, fired };
    super('argcheck-regression-by-name', '0.0.0', {});
  }

  protected override init(): InstrumentationModuleDefinition[] {
    const { pkg, file, fired } = ByNameFileHook.next!;
    const mark = <T>(exports: T): T => {
      fired.push(file);
      return exports;
    };
    return [
      new InstrumentationNodeModuleDefinition(pkg, ['*'], undefined, undefined, [
        new InstrumentationNodeModuleFile(`${pkg}/${file}`, ['*'], mark, () => undefined),
      ]),
    ];
  }
}

function requireFreshWith(pkg: string, file: string, specifier: string): string[] {
  const fired: string[] = [];
  const inst = new ByNameFileHook(pkg, file, fired);
  try {
    delete require.cache[require.resolve(specifier)];
    require(specifier);
  } finally {
    inst.disable();
  }
  return fired;
}

describe('regression: @modelcontextprotocol/sdk 1.32.x does not ship its CommonJS main', function () {
  // Fresh requires of the SDK's CommonJS client read it from disk again: seconds on a loaded machine.
  this.timeout(30_000);
  it('the installed SDK is a 1.x copy whose package entry cannot be resolved for require', () => {
    expect(install, 'an installed @modelcontextprotocol/sdk 1.x').to.not.equal(undefined);
    const manifest = JSON.parse(readFileSync(join(install!.root, 'package.json'), 'utf8')) as {
      exports: { '.': { require: string } };
    };
    expect(existsSync(join(install!.root, manifest.exports['.'].require))).to.equal(false);
    expect(() => require.resolve('@modelcontextprotocol/sdk')).to.throw();
  });

  it('a by-name file hook fires for a package whose entry resolves (control)', () => {
    const fired = requireFreshWith(
      '@modelcontextprotocol/client',
      'dist/stdio.cjs',
      '@modelcontextprotocol/client/stdio',
    );
    expect(fired).to.deep.equal(['dist/stdio.cjs']);
  });

  it('the same by-name file hook never fires for the 1.x CommonJS client', () => {
    const fired = requireFreshWith(
      '@modelcontextprotocol/sdk',
      'dist/cjs/client/index.js',
      CJS_CLIENT,
    );
    expect(fired).to.deep.equal([]);
  });

  it('the instrumentation hooks both client builds of the installed copy by absolute path, through the hooks shared by every instance', () => {
    const inst = new ToolArgumentInstrumentation();
    const builds = [
      join(install!.root, 'dist/cjs/client/index.js'),
      join(install!.root, 'dist/esm/client/index.js'),
    ];
    try {
      expect(hookedPaths()).to.include.members(builds);
      // Not handed to OpenTelemetry, which would give this instance hooks of its own.
      const names = inst.getModuleDefinitions().map((d) => d.name);
      expect(names.filter((n) => builds.includes(n))).to.deep.equal([]);
    } finally {
      inst.disable();
      inst.close();
    }
  });

  it('the absolute-path definition patches the CommonJS client on require', () => {
    const inst = new ToolArgumentInstrumentation();
    try {
      delete require.cache[require.resolve(CJS_CLIENT)];
      const { Client } = require(CJS_CLIENT) as { Client: { prototype: { callTool: unknown } } };
      expect(isWrapped(Client.prototype.callTool)).to.equal(true);
    } finally {
      inst.disable();
      inst.close();
    }
  });

  it('disable() unpatches the client loaded by absolute path, enable() patches it again, and a load while disabled is patched on enable()', () => {
    const inst = new ToolArgumentInstrumentation();
    type Loaded = { Client: { prototype: { callTool: unknown } } };
    try {
      delete require.cache[require.resolve(CJS_CLIENT)];
      const first = (require(CJS_CLIENT) as Loaded).Client.prototype;
      inst.disable();
      expect(isWrapped(first.callTool)).to.equal(false);
      inst.enable();
      expect(isWrapped(first.callTool)).to.equal(true);
      inst.disable();
      delete require.cache[require.resolve(CJS_CLIENT)];
      const second = (require(CJS_CLIENT) as Loaded).Client.prototype;
      expect(isWrapped(second.callTool)).to.equal(false);
      inst.enable();
      expect(isWrapped(second.callTool)).to.equal(true);
    } finally {
      inst.disable();
      inst.close();
    }
  });
});
