import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { DemoFigures } from '../../src/demo/figures.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { recordFigure } from '@argcheck/testing/figures';

const BIN = fileURLToPath(new URL('../../src/bin.js', import.meta.url));
const run = promisify(execFile);

/** What a run counted and sampled, without its timings. */
function outcome(figures: DemoFigures, logFile: string) {
  return {
    arguments: figures.arguments,
    tools: figures.tools,
    calls: figures.calls,
    logRecords: figures.logRecords,
    ownerAnswers: figures.valueSets.map((s) => [s.name, s.ownerAnswers]),
    logLines: readFileSync(logFile, 'utf8').split('\n'),
  };
}

describe('regression: two demo runs with the same --seed sampled different log records', () => {
  const dir = useTempDir();

  for (const mode of ['observe', 'reject']) {
    it(`${mode} mode: the same seed writes the same records and counts the same checks`, async function () {
      this.timeout(60_000);
      // Side by side, so the two runs meet different timing on the same machine.
      const runs = await Promise.all(
        ['a', 'b'].map(async (name) => {
          const logs = dir.path(`${mode}-${name}.jsonl`);
          const demo = await run(
            process.execPath,
            [
              BIN,
              'demo',
              '--duration',
              '3',
              '--seed',
              '5',
              '--mode',
              mode,
              '--json',
              '--logs',
              logs,
            ],
            { env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' } },
          );
          return outcome(JSON.parse(demo.stdout) as DemoFigures, logs);
        }),
      );
      // The identity outage outlived TTL + stale allowance in both: some checks could not run.
      const unavailable = runs[0]?.arguments.reduce((sum, a) => sum + a.unavailable, 0);
      expect(unavailable).to.be.above(0);
      expect(runs[0]?.logRecords).to.be.above(20);
      expect(runs[1]).to.deep.equal(runs[0]);
      recordFigure(
        'demo-seed',
        `${mode}: two runs side by side, \`--duration 3 --seed 5\`: the same ${runs[0]?.logRecords} log records and the same counts (${unavailable} checks unavailable in each)`,
      );
    });
  }
});
