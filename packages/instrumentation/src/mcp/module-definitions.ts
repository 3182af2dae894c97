import { parse } from 'node:path';
import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import type { McpHost } from '../internal-types.js';
import { patchClientModule, unpatchClientModule } from './patch-client.js';
import { findSdkInstalls, SDK_CLIENT_FILES, SDK_PACKAGE } from './sdk-location.js';

const CLIENT_PACKAGE = '@modelcontextprotocol/client';
const CLIENT_VERSIONS = ['>=2.0.0 <3'];
const SDK_VERSIONS = ['>=1.10.0 <2'];

/**
 * What `init()` returns for MCP clients:
 *
 * - `@modelcontextprotocol/client` 2.x by name: its main entry (`dist/index.cjs`,
 *   or `dist/index.mjs` through the ESM hook) exports `Client`.
 * - `@modelcontextprotocol/sdk` 1.x by name, with its two client files. This
 *   reaches ESM imports and versions whose `main` resolves; for CommonJS on
 *   1.32.x it never fires, because that package names a `main` it does not
 *   ship and require-in-the-middle then skips every file hook in it.
 * - So, for each installed 1.x copy found now, each client file by absolute
 *   path as its own definition. Hooks on an absolute path report the file's
 *   base name (`index`) and no package version (the version was checked while
 *   finding the copy), hence the `*` ranges.
 *
 * The same module may be patched by two definitions; patching is idempotent.
 * Nothing here reads `host` yet: `init()` runs inside the instrumentation's
 * constructor, before the host is complete.
 */
export function mcpModuleDefinitions(host: McpHost): InstrumentationModuleDefinition[] {
  const patch = <T>(moduleExports: T): T => patchClientModule(moduleExports, host);
  const unpatch = <T>(moduleExports: T): T => unpatchClientModule(moduleExports);
  const file = (name: string, versions: string[]): InstrumentationNodeModuleFile =>
    new InstrumentationNodeModuleFile(name, versions, patch, unpatch);

  const definitions: InstrumentationModuleDefinition[] = [
    new InstrumentationNodeModuleDefinition(CLIENT_PACKAGE, CLIENT_VERSIONS, patch, unpatch),
    new InstrumentationNodeModuleDefinition(
      SDK_PACKAGE,
      SDK_VERSIONS,
      undefined,
      undefined,
      SDK_CLIENT_FILES.map((f) => file(`${SDK_PACKAGE}/${f}`, SDK_VERSIONS)),
    ),
  ];
  for (const install of findSdkInstalls()) {
    for (const path of install.clientFiles) {
      definitions.push(
        new InstrumentationNodeModuleDefinition(path, ['*'], undefined, undefined, [
          file(parse(path).name, ['*']),
        ]),
      );
    }
  }
  return definitions;
}
