import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repo.js';

// Defect: running the collector from the repository root (as docs/pipeline.md
// shows) writes its sampled log records to ./.argcheck/logs/, and git offered
// that directory for the next commit: emitted values, which may carry user
// data, one `git add -A` away from the history. `npm run stack` keeps its run
// directory under .argcheck/ too.

describe('regression: the collector’s default log directory was not ignored by git', () => {
  const config = readFileSync(join(repoRoot, 'otel-collector.yaml'), 'utf8');
  const logFile = /\$\{env:ARGCHECK_LOG_FILE:-([^}]+)\}/.exec(config)?.[1];

  it('reads the default log file from otel-collector.yaml', () => {
    expect(logFile).to.equal('./.argcheck/logs/argcheck-logs.jsonl');
  });

  for (const path of [logFile ?? '', '.argcheck/stack/prometheus-data/wal/00000000']) {
    it(`git ignores ${path}`, () => {
      const result = spawnSync('git', ['check-ignore', '--no-index', '-q', path], {
        cwd: repoRoot,
        encoding: 'utf8',
      });
      expect(result.error, 'git is on PATH').to.equal(undefined);
      expect(result.status, `git check-ignore ${path}: ${result.stderr}`).to.equal(0);
    });
  }
});
