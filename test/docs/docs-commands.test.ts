// Every `sh` and `bash` block of README.md and docs/*.md, run as written on a
// clean clone of the current commit (`npm ci` once), in order per file, from
// the clone's root. A block is left out only when the line before its fence
// says why: <!-- docs-commands: skip — <reason> -->.
// Not part of `npm test` (it clones and installs): `npm run test:docs-commands`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../helpers/repo.js';
import { shellBlocks, type ShellBlock } from './shell-blocks.js';

/** What one block may take; the README's `npm ci && npm start` is the longest. */
const BLOCK_LIMIT_MS = 6 * 60_000;
/** What all blocks together may take, the setup's `npm ci` included. */
const TOTAL_LIMIT_MS = 10 * 60_000;
const OUTPUT_TAIL_LINES = 40;

const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();

const commit = git('rev-parse', 'HEAD');
const files = [
  'README.md',
  ...git('ls-tree', '--name-only', commit, 'docs/')
    .split('\n')
    .filter((path) => /^docs\/[^/]+\.md$/.test(path))
    .sort(),
];
const blocks = files.map((file) => ({
  file,
  blocks: shellBlocks(file, git('show', `${commit}:${file}`)),
}));

/** The user's environment, without what `npm run` adds for its own scripts. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD'),
  );
}

interface BlockRun {
  status: number | null;
  /** The line of the command that failed, if one did. */
  failedAt?: number;
  output: string;
  ms: number;
}

/**
 * Runs the block's commands in one bash, from `cwd`, stopping at the first
 * that exits non-zero (pipefail: in a pipe, any part). Each command is checked
 * on its own, so `a && b` failing in `a` stops the block too.
 */
function runBlock(block: ShellBlock, cwd: string, limitMs: number): Promise<BlockRun> {
  const script = ['set -o pipefail']
    .concat(
      block.commands.flatMap(({ line, text }) => [
        text,
        `s=$?; if [ "$s" -ne 0 ]; then echo "${line}" >&3; exit "$s"; fi`,
      ]),
    )
    .join('\n');
  const started = Date.now();
  // Its own process group, so that a timeout ends what the commands started too.
  const child = spawn('bash', ['-c', script], {
    cwd,
    env: userEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let failedAt: number | undefined;
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stdio[3]?.on('data', (chunk: Buffer) => {
    failedAt = Number(chunk.toString().trim());
  });
  const timer = setTimeout(() => {
    output.push(`\n[docs-commands: stopped after ${limitMs / 1000} s]\n`);
    process.kill(-child.pid!, 'SIGKILL');
  }, limitMs);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, failedAt, output: output.join(''), ms: Date.now() - started });
    });
  });
}

function tail(text: string): string {
  return text.split('\n').slice(-OUTPUT_TAIL_LINES).join('\n');
}

describe(`docs commands on a clean clone of ${commit.slice(0, 12)}`, function () {
  let clone = '';
  let totalMs = 0;

  before(async function () {
    this.timeout(TOTAL_LIMIT_MS);
    if (git('status', '--porcelain') !== '') {
      console.log(`    (uncommitted changes are not tested: the clone is of ${commit})`);
    }
    clone = mkdtempSync(join(tmpdir(), 'argcheck-docs-commands-'));
    const setup: ShellBlock = {
      file: 'setup',
      line: 0,
      commands: [
        { line: 1, text: `git clone --quiet --no-checkout ${JSON.stringify(repoRoot)} .` },
        { line: 2, text: `git checkout --quiet ${commit}` },
        { line: 3, text: 'npm ci --no-audit --no-fund' },
      ],
    };
    const run = await runBlock(setup, clone, TOTAL_LIMIT_MS);
    totalMs += run.ms;
    if (run.status !== 0)
      throw new Error(`the clean clone could not be set up:\n${tail(run.output)}`);
  });

  after(() => {
    if (clone !== '') rmSync(clone, { recursive: true, force: true });
  });

  it('finds the quick start in README.md', () => {
    const readme = blocks.find((b) => b.file === 'README.md')?.blocks ?? [];
    expect(
      readme.some(
        (b) => b.skip === undefined && b.commands.some((c) => c.text.includes('npm start')),
      ),
    ).to.equal(true);
  });

  for (const { file, blocks: fileBlocks } of blocks) {
    describe(file, () => {
      for (const block of fileBlocks) {
        const first = block.commands[0]?.text ?? '(empty)';
        const title = `${file}:${block.line} ${first}${block.commands.length > 1 ? ' …' : ''}`;
        if (block.skip !== undefined) {
          it.skip(`${title} (skipped: ${block.skip})`);
          continue;
        }
        it(title, async function () {
          this.timeout(BLOCK_LIMIT_MS + 10_000);
          const run = await runBlock(block, clone, BLOCK_LIMIT_MS);
          totalMs += run.ms;
          if (run.status !== 0) {
            const failed = block.commands.find((c) => c.line === run.failedAt);
            const where = failed
              ? `${file}:${failed.line}: \`${failed.text}\``
              : `${file}:${block.line}`;
            throw new Error(
              `${where} exited with ${run.status ?? 'a signal'} after ${Math.round(run.ms / 1000)} s; ` +
                `last output:\n${tail(run.output)}`,
            );
          }
        });
      }
    });
  }

  describe('in all', () => {
    it(`ran within ${TOTAL_LIMIT_MS / 60_000} minutes, the clone and npm ci included`, () => {
      console.log(`      ${Math.round(totalMs / 1000)} s`);
      expect(totalMs).to.be.below(TOTAL_LIMIT_MS);
    });
  });
});
