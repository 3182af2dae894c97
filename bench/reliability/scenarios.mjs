// The fault matrix: every scenario by area, and the check that the tests the
// rows cite still exist (run by bench/reliability/run.mjs before it writes,
// and by test/scale in `npm test`).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import { adversarial, concurrency, floods, mcp, telemetryFaults } from './calls-and-telemetry.mjs';
import { outages, ownerFaults, ttl } from './owner-faults.mjs';
import { soakRows } from './soak-rows.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `[area, scenarios]` in document order; soak rows read `soak` (bench/results/soak.json). */
export function areas(soak) {
  const rows = soakRows(soak);
  return [
    ['Owner faults', ownerFaults],
    ['Concurrency', concurrency],
    ['Outages and recovery', [...outages, ...rows.outages]],
    ['TTL changes', ttl],
    ['Telemetry faults', [...telemetryFaults, ...rows.telemetry]],
    ['Adversarial arguments', adversarial],
    ['Cardinality floods', floods],
    ['MCP calls', mcp],
  ];
}

/**
 * Citations that no longer hold: a cited file that is gone, or one that lacks
 * a fragment of the cited test (its title, or the literal parts of a
 * templated one).
 */
export function missingCitations(list = areas(undefined)) {
  const missing = [];
  for (const [, scenarios] of list) {
    for (const s of scenarios) {
      for (const [file, title, fragments = [title]] of s.proof) {
        const path = `${ROOT}${file}`;
        if (!existsSync(path)) {
          missing.push(`${file} (file is gone) — ${s.fault}`);
          continue;
        }
        const text = readFileSync(path, 'utf8');
        for (const f of fragments)
          if (!text.includes(f)) missing.push(`${file}: "${f}" — ${s.fault}`);
      }
    }
  }
  return missing;
}
