// Issue 21, item 11: the demo printed OTLP credentials. An endpoint given as
// `--otlp 'http://user:s3cret@…/base?token=…'` (or OTEL_EXPORTER_OTLP_ENDPOINT)
// was echoed whole in its last line and in `--json`. It is now shown as its
// origin and path only.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { DemoFigures } from '../../src/demo/figures.js';
import { shownEndpoint } from '../../src/demo/shown-endpoint.js';
import { recordFigure } from '@argcheck/testing/figures';

const BIN = fileURLToPath(new URL('../../src/bin.js', import.meta.url));
const run = promisify(execFile);

describe('regression: the demo printed OTLP credentials', () => {
  it('shows an endpoint as its origin and path: no user, password, query or fragment', () => {
    expect(shownEndpoint('http://user:s3cret@127.0.0.1:4318/base?token=t0k3n#frag')).to.equal(
      'http://127.0.0.1:4318/base',
    );
    expect(shownEndpoint('https://collector.internal')).to.equal('https://collector.internal');
    expect(shownEndpoint('not a url s3cret')).to.equal('(an endpoint that is not a URL)');
  });

  for (const given of ['flag', 'environment'] as const) {
    it(`prints no credential of an endpoint given by the ${given}, in text or --json`, async function () {
      this.timeout(60_000);
      const sink = createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
      });
      await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
      const port = (sink.address() as AddressInfo).port;
      const endpoint = `http://user:s3cret@127.0.0.1:${port}/base?token=t0k3n`;
      let printedCharacters = 0;
      try {
        for (const json of [false, true]) {
          const args = ['demo', '--duration', '1', ...(json ? ['--json'] : [])];
          const demo =
            given === 'flag'
              ? await run(process.execPath, [BIN, ...args, '--otlp', endpoint])
              : await run(process.execPath, [BIN, ...args], {
                  env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
                });
          const printed = `${demo.stdout}\n${demo.stderr}`;
          printedCharacters += printed.length;
          expect(printed).not.to.include('s3cret');
          expect(printed).not.to.include('t0k3n');
          expect(printed).not.to.include('user:');
          if (json) {
            const figures = JSON.parse(demo.stdout) as DemoFigures;
            expect(figures.otlp?.endpoint).to.equal(`http://127.0.0.1:${port}/base`);
          } else {
            expect(demo.stdout).to.include(`OTLP/HTTP to http://127.0.0.1:${port}/base:`);
          }
        }
        recordFigure(
          'demo-otlp-credentials',
          `given by the ${given}: 0 credentials in ${printedCharacters.toLocaleString('en-US')} characters printed (text and --json), the endpoint shown as \`http://127.0.0.1:<port>/base\``,
        );
      } finally {
        sink.close();
      }
    });
  }
});
