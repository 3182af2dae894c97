import { expect } from 'chai';
import { shellBlocks } from './shell-blocks.js';

const doc = [
  '# Title',
  '',
  '```sh',
  'npm ci && npm start   # a comment after the command stays',
  '# a whole-line comment goes',
  '',
  'prometheus --config.file=a.yml \\',
  '  --storage.tsdb.path=/tmp/p',
  '```',
  '',
  '<!-- docs-commands: skip — starts a server that does not exit -->',
  '',
  '```bash',
  'otelcol --config otel-collector.yaml',
  '```',
  '',
  '```js',
  'console.log("not shell");',
  '```',
  '',
  '1. In a list:',
  '   ~~~sh',
  '   npx argcheck demo --help',
  '   ~~~',
  '```text',
  '$ not run',
  '```',
].join('\n');

describe('shellBlocks', () => {
  it('reads sh and bash blocks with their lines, continuations joined and comments dropped', () => {
    expect(shellBlocks('doc.md', doc)).to.deep.equal([
      {
        file: 'doc.md',
        line: 3,
        commands: [
          { line: 4, text: 'npm ci && npm start   # a comment after the command stays' },
          { line: 7, text: 'prometheus --config.file=a.yml   --storage.tsdb.path=/tmp/p' },
        ],
      },
      {
        file: 'doc.md',
        line: 13,
        commands: [{ line: 14, text: 'otelcol --config otel-collector.yaml' }],
        skip: 'starts a server that does not exit',
      },
      {
        file: 'doc.md',
        line: 22,
        commands: [{ line: 23, text: 'npx argcheck demo --help' }],
      },
    ]);
  });

  it('refuses a docs-commands marker it does not know, or a skip without a reason', () => {
    for (const marker of ['<!-- docs-commands: skp — typo -->', '<!-- docs-commands: skip -->']) {
      expect(() => shellBlocks('doc.md', `${marker}\n\`\`\`sh\nnpm start\n\`\`\`\n`)).to.throw(
        /doc\.md:1: unknown docs-commands marker/,
      );
    }
  });
});
