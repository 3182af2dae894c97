import { fileURLToPath } from 'node:url';

/** The repository root, from the compiled test's location (build/test/...). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
