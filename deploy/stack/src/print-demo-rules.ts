/**
 * `npm run --silent stack:rules [-- --speed N]`: prints the demo-speed copy of
 * deploy/prometheus/rules/argcheck.rules.yml that `npm run stack` loads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_SPEED, demoSpeedRules } from './demo-speed.js';
import { REPO_ROOT } from './programs.js';

const { values } = parseArgs({
  options: { speed: { type: 'string', default: String(DEMO_SPEED) } },
});
const shipped = readFileSync(join(REPO_ROOT, 'deploy/prometheus/rules/argcheck.rules.yml'), 'utf8');
process.stdout.write(demoSpeedRules(shipped, Number(values.speed)));
