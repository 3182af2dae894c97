import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../tools.js';
import { recordFigure } from '@argcheck/testing/figures';

// Defect: docs/pipeline.md started Prometheus without --web.listen-address,
// so it listened on 0.0.0.0:9090 while every other default in the pipeline
// is loopback. Prometheus and Alertmanager listen on every interface unless
// told otherwise, so every command that starts one of them, in the docs and
// in the deploy files' comments, must say where.

interface Command {
  where: string;
  text: string;
}

const SERVER = /^(prometheus|prometheus-alertmanager|alertmanager) .*--config\.file=/;

function files(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** Server commands, with backslash continuations joined, in code blocks and comments. */
function commandsIn(path: string): Command[] {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.replace(/^\s*#\s*/, '').trim());
  const out: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!SERVER.test(lines[i]!)) continue;
    const where = `${relative(REPO_ROOT, path)}:${i + 1}`;
    let text = lines[i]!;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++i]}`;
    out.push({ where, text });
  }
  return out;
}

const commands = [
  ...files(join(REPO_ROOT, 'docs'), (n) => n.endsWith('.md')),
  join(REPO_ROOT, 'README.md'),
  ...files(join(REPO_ROOT, 'deploy'), (n) => /\.(ya?ml|sh|md)$/.test(n)),
].flatMap(commandsIn);

describe('regression: the Prometheus command in the docs listened on every interface', () => {
  it('finds the commands in docs/pipeline.md and the deploy files', () => {
    expect([...new Set(commands.map((c) => c.where.split(':')[0]))].sort()).to.deep.equal([
      'deploy/alertmanager/alertmanager.yml',
      'deploy/prometheus/prometheus.yml',
      'docs/pipeline.md',
    ]);
    const loopback = commands.filter(
      (c) =>
        /--web\.listen-address=127\.0\.0\.1:\d+(\s|$)/.test(c.text) &&
        (c.text.startsWith('prometheus ') ||
          /--cluster\.listen-address=(\s|$|127\.0\.0\.1:)/.test(c.text)),
    );
    recordFigure(
      'prometheus-listens-everywhere',
      `${loopback.length} of ${commands.length} server commands listen on loopback only (in ${[...new Set(commands.map((c) => c.where.split(':')[0]))].sort().join(', ')})`,
    );
  });

  for (const command of commands) {
    it(`${command.where} listens on loopback`, () => {
      expect(command.text).to.match(/--web\.listen-address=127\.0\.0\.1:\d+(\s|$)/);
      if (!command.text.startsWith('prometheus ')) {
        // Alertmanager's cluster port is a second listener: empty turns it off.
        expect(command.text).to.match(/--cluster\.listen-address=(\s|$|127\.0\.0\.1:)/);
      }
    });
  }
});
