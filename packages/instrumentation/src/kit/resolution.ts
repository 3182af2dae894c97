/**
 * Finding an application's installed packages without loading them. The
 * CommonJS build knows its own file; the ESM build cannot name `import.meta`
 * in source shared with it, so both also try the entry script and the
 * working directory — the application resolves its packages from there too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function resolutionBases(): string[] {
  const bases: string[] = [];
  if (typeof __filename === 'string') bases.push(__filename);
  if (typeof process.argv[1] === 'string') bases.push(process.argv[1]);
  bases.push(join(process.cwd(), 'argcheck-resolve.js'));
  return bases;
}

/** The root of the package named `name` that `file` belongs to, found by walking up. */
export function packageRootOf(file: string, name: string): string | undefined {
  for (let dir = dirname(file), i = 0; i < 8; dir = dirname(dir), i++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
        if (parsed.name === name) return dir;
      } catch {
        // An unreadable manifest on the way up: keep walking.
      }
    }
    if (dirname(dir) === dir) break;
  }
  return undefined;
}

/**
 * Roots of the copies of `name` the application resolves, through the first
 * of `specifiers` (paths of the package its exports map allows) that
 * resolves from each base. Empty when it is not installed. Never throws.
 */
export function installedRoots(
  name: string,
  specifiers: readonly string[] = [`${name}/package.json`, name],
  bases: readonly string[] = resolutionBases(),
): string[] {
  const roots = new Set<string>();
  for (const base of bases) {
    for (const specifier of specifiers) {
      try {
        const root = packageRootOf(createRequire(base).resolve(specifier), name);
        if (root !== undefined) {
          roots.add(root);
          break;
        }
      } catch {
        // Not installed where this base looks, or its exports do not allow the
        // specifier under `require`; the next one may do.
      }
    }
  }
  return [...roots];
}
