import { expect } from 'chai';
import { Readable } from 'node:stream';
import { splitLines, type InputLine } from '../../src/report/split-lines.js';

async function split(chunks: string[], maxLineBytes = 100): Promise<InputLine[]> {
  const lines: InputLine[] = [];
  await splitLines(Readable.from(chunks.map((c) => Buffer.from(c))), maxLineBytes, (line) =>
    lines.push(line),
  );
  return lines;
}

describe('splitLines', () => {
  it('numbers lines across chunk boundaries and strips CRLF', async () => {
    expect(await split(['ab', 'c\r\nd', 'e\n\nf'])).to.deep.equal([
      { number: 1, text: 'abc' },
      { number: 2, text: 'de' },
      { number: 3, text: '' },
      { number: 4, text: 'f' },
    ]);
  });

  it('yields nothing for empty input and no phantom line after a final newline', async () => {
    expect(await split([])).to.deep.equal([]);
    expect(await split(['a\n'])).to.deep.equal([{ number: 1, text: 'a' }]);
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const bytes = Buffer.from('é\n');
    const lines: InputLine[] = [];
    await splitLines(Readable.from([bytes.subarray(0, 1), bytes.subarray(1)]), 10, (l) =>
      lines.push(l),
    );
    expect(lines).to.deep.equal([{ number: 1, text: 'é' }]);
  });

  it('drops a line longer than the limit, whether it ends the input or not', async () => {
    expect(await split(['12345', '6789\nok\n', '1234567890x'], 8)).to.deep.equal([
      { number: 1 },
      { number: 2, text: 'ok' },
      { number: 3 },
    ]);
  });
});
