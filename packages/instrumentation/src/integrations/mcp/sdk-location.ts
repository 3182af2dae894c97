import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedRoots, resolutionBases } from '../../kit/resolution.js';

export const SDK_PACKAGE = '@modelcontextprotocol/sdk';
/** The client module, relative to the package root, per build. */
export const SDK_CLIENT_FILES = ['dist/cjs/client/index.js', 'dist/esm/client/index.js'] as const;

/** One installed copy of the 1.x SDK. */
export interface SdkInstall {
  readonly root: string;
  readonly version: string;
  /** Absolute paths of the client module builds this copy ships. */
  readonly clientFiles: readonly string[];
}

function installAt(root: string): SdkInstall | undefined {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  if (typeof version !== 'string') return undefined;
  const clientFiles = SDK_CLIENT_FILES.map((file) => join(root, file)).filter((p) => existsSync(p));
  return { root, version, clientFiles };
}

/**
 * The installed copies of `@modelcontextprotocol/sdk`, found without loading
 * them (the module spec decides which versions it patches). Empty when the
 * SDK is not installed. Never throws.
 */
export function findSdkInstalls(bases: readonly string[] = resolutionBases()): SdkInstall[] {
  const installs: SdkInstall[] = [];
  // The 1.x package's own "./*" export maps `package.json` into dist/cjs, so
  // the real manifest is found by walking up from the client module.
  for (const root of installedRoots(SDK_PACKAGE, [`${SDK_PACKAGE}/client`], bases)) {
    try {
      const install = installAt(root);
      if (install !== undefined) installs.push(install);
    } catch {
      // An unreadable manifest: this copy is not patched, the rest still are.
    }
  }
  return installs;
}
