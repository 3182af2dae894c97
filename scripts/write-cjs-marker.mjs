// The CommonJS build sits inside an ESM package ("type": "module"); a nested
// package.json tells Node to load the files below it as CommonJS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) throw new Error('usage: write-cjs-marker.mjs <dir>');
writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
