import { fileURLToPath } from 'node:url';

/**
 * The root of the tree this file was built in (its compiled copy is
 * `build/bench/lib/paths.js`), with a trailing slash. In the OpenTelemetry
 * 3.x copy (`.cache/otel3`) that is the copy.
 */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
