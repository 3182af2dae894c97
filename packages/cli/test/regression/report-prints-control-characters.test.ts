// Issue 21, item 7: `argcheck report` printed terminal and markdown control
// characters from hostile records: raw ESC/OSC/BEL/CR in the tool heading,
// the set and the shape, in text and in markdown; U+009B and U+202E passed
// the JSON quoting of values; skipped lines were echoed to stderr through
// V8's error message. Everything it prints that came from a record is now
// escaped (`\uXXXX`).
import { expect } from 'chai';
import { runCli } from '../../src/cli.js';
import { captureIo } from '../helpers/capture-io.js';
import { otlpCheck, otlpLine, plainLine } from '../helpers/log-lines.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { recordFigure } from '@argcheck/testing/figures';

const UNSAFE =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

const HOSTILE = {
  tool: 'refund\u001b]0;OWNED\u0007\u001b[2K\r',
  argument: 'reason\u202ecode',
  set: 'refunds\u001b[31m',
  in_set: 'false',
  in_set_normalised: 'false',
  shape: 'invented\u001b[1A',
  value: 'INV\u009b31m\u202eENTED\ud800',
};

describe('regression: argcheck report printed control characters from records', () => {
  const dir = useTempDir();

  for (const format of ['text', 'markdown', 'json'] as const) {
    it(`${format}: nothing from a hostile record or line reaches the output raw`, async () => {
      const file = dir.path(
        'hostile.jsonl',
        [
          plainLine(HOSTILE),
          otlpLine([otlpCheck(HOSTILE)]),
          // A corrupt line whose parse error quotes the line itself.
          '\u001b]0;PWN\u0007{',
          '{"a":\u001b[2J}',
        ].join('\n') + '\n',
      );
      const io = captureIo();
      await runCli(['report', '--format', format, file], io);
      const printed = `${io.out()}\n${io.err()}`;
      const raw = [...printed]
        .filter((c) => UNSAFE.test(c))
        .map((c) => c.charCodeAt(0).toString(16));
      expect(raw).to.deep.equal([]);
      expect(io.err()).to.match(/skipped/);
      expect(io.out()).to.include('refund\\u001b]0;OWNED\\u0007');
      recordFigure(
        'report-control-characters',
        `${format}: ${raw.length} raw control, bidi or lone-surrogate characters in ${printed.length.toLocaleString('en-US')} printed`,
      );
    });
  }
});
