import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const cjsEntry = fileURLToPath(new URL('../../cjs/index.js', import.meta.url));

/**
 * A CommonJS application that requires the package's CommonJS build, run from
 * a working directory where nothing resolves: the 1.x SDK must be found from
 * the package's own location (`__filename` in that build).
 */
const APP = `
const { createRequire } = require('node:module');
const here = createRequire(${JSON.stringify(cjsEntry)});
const { ToolArgumentInstrumentation } = require(${JSON.stringify(cjsEntry)});
const { registerInstrumentations, isWrapped } = here('@opentelemetry/instrumentation');
const inst = new ToolArgumentInstrumentation({});
registerInstrumentations({ instrumentations: [inst] });
const v1 = here('@modelcontextprotocol/sdk/client/index.js');
const v2 = here('@modelcontextprotocol/client');
process.stdout.write(JSON.stringify({
  sdk1: isWrapped(v1.Client.prototype.callTool) && isWrapped(v1.Client.prototype.listTools),
  client2: isWrapped(v2.Client.prototype.callTool) && isWrapped(v2.Client.prototype.listTools),
}));
inst.close();
`;

describe('auto-patching — a CommonJS application using the CommonJS build', function () {
  this.timeout(30_000);

  it('patches both client lines on require, whatever the working directory', async function () {
    // build/cjs comes from `npm run build` (tsc -p tsconfig.cjs.json), not from `tsc --build`.
    if (!existsSync(cjsEntry)) this.skip();
    const { stdout } = await run(process.execPath, ['-e', APP], { cwd: tmpdir() });
    expect(JSON.parse(stdout)).to.deep.equal({ sdk1: true, client2: true });
  });
});
