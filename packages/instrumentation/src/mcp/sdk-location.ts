import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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

/** `>=1.10 <2`: the range whose `Client.callTool(params, resultSchema?, options?)` we know. */
export function isSupportedSdkVersion(version: string): boolean {
  const match = /^(\d+)\.(\d+)\.\d+/.exec(version);
  return match !== null && Number(match[1]) === 1 && Number(match[2]) >= 10;
}

/**
 * Where resolution starts. The CommonJS build knows its own file; the ESM
 * build cannot name `import.meta` in source shared with it, so both also try
 * the entry script and the working directory — the application that loads
 * the SDK resolves it from there too.
 */
function resolutionBases(): string[] {
  const bases: string[] = [];
  if (typeof __filename === 'string') bases.push(__filename);
  if (typeof process.argv[1] === 'string') bases.push(process.argv[1]);
  bases.push(join(process.cwd(), 'argcheck-resolve.js'));
  return bases;
}

function packageRootOf(file: string): string | undefined {
  // The 1.x package's own "./*" export maps `package.json` into dist/cjs, so
  // the real manifest is found by walking up, not by resolving it.
  for (let dir = dirname(file), i = 0; i < 8; dir = dirname(dir), i++) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
    if (parsed.name === SDK_PACKAGE) return dir;
    if (dirname(dir) === dir) break;
  }
  return undefined;
}

function installAt(root: string): SdkInstall | undefined {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  if (typeof version !== 'string' || !isSupportedSdkVersion(version)) return undefined;
  const clientFiles = SDK_CLIENT_FILES.map((file) => join(root, file)).filter((p) => existsSync(p));
  return { root, version, clientFiles };
}

/**
 * The installed copies of `@modelcontextprotocol/sdk` in a supported version,
 * found without loading them. Empty when the SDK is not installed. Never throws.
 */
export function findSdkInstalls(bases: readonly string[] = resolutionBases()): SdkInstall[] {
  const roots = new Set<string>();
  for (const base of bases) {
    try {
      const client = createRequire(base).resolve(`${SDK_PACKAGE}/client`);
      const root = packageRootOf(client);
      if (root !== undefined) roots.add(root);
    } catch {
      // Not installed where this base looks; the next base may find it.
    }
  }
  const installs: SdkInstall[] = [];
  for (const root of roots) {
    try {
      const install = installAt(root);
      if (install !== undefined) installs.push(install);
    } catch {
      // An unreadable manifest: this copy is not patched, the rest still are.
    }
  }
  return installs;
}
