import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, requireCommand, run } from './tools.js';

// PromQL shown to readers (README and docs/) must parse: each query becomes a
// recording rule that promtool checks.
function promqlQueries(): { where: string; expr: string }[] {
  const files = [
    join(REPO_ROOT, 'README.md'),
    ...readdirSync(join(REPO_ROOT, 'docs'))
      .filter((n) => n.endsWith('.md'))
      .map((n) => join(REPO_ROOT, 'docs', n)),
  ];
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/```promql\n([\s\S]*?)```/g)].flatMap((block) =>
      (block[1] ?? '')
        .split(/\n\s*\n/)
        .map((q) =>
          q
            .split('\n')
            .filter((line) => !line.trimStart().startsWith('#'))
            .join('\n')
            .trim(),
        )
        .filter((expr) => expr.length > 0)
        .map((expr) => ({ where: file.slice(REPO_ROOT.length), expr })),
    ),
  );
}

describe('PromQL in the docs', () => {
  it('shows the attribution and repair queries', () => {
    const all = promqlQueries()
      .map((q) => q.expr)
      .join('\n');
    for (const text of [
      'sum by (tool, argument, set, gen_ai_request_model)',
      'sum by (tool, argument, set, tool_definition)',
      'tool_argument_repair_outcome_total{outcome="resolved"}',
      'tool_argument_value_set_change_total',
    ]) {
      expect(all, text).to.include(text);
    }
  });

  it('parses with promtool', () => {
    requireCommand('promtool');
    const queries = promqlQueries();
    expect(queries.length).to.be.greaterThan(3);
    const dir = mkdtempSync(join(tmpdir(), 'argcheck-docs-promql-'));
    try {
      const rules = [
        'groups:',
        '  - name: docs',
        '    rules:',
        ...queries.flatMap((q, i) => [
          `      - record: docs:query_${i}`,
          `        expr: ${JSON.stringify(q.expr)}`,
        ]),
      ].join('\n');
      const file = join(dir, 'docs.rules.yml');
      writeFileSync(file, `${rules}\n`);
      const result = run('promtool', ['check', 'rules', file]);
      expect(result.status, `${result.output}\n${queries.map((q) => q.where).join('\n')}`).to.equal(
        0,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
