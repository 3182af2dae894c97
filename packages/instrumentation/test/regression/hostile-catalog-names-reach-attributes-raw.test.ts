// Issue 21, item 6: names from an MCP server reached attributes raw. A tool
// named `refund\u001b]0;OWNED\u0007\u001b[2K\r\ud800` on a server named
// `shop\u001b[31m` became metric attribute values and log attributes as they
// were (ESC, BEL, CR, a lone surrogate). Catalog names are now safe text,
// bounded, with a stable mapping (telemetry/safe-name.ts).
import { expect } from 'chai';
import { ManualClock } from '@argcheck/testing/clock';
import { allPointsOf } from '@argcheck/testing/metrics';
import { ATTR_VALUE } from '../../src/semconv.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { fakeClientClass } from '../mcp/helpers/scripted-engine.js';
import { recordFigure } from '@argcheck/testing/figures';

/** No lone surrogate (String.prototype.isWellFormed, outside the compiled lib). */
const wellFormed = (s: string): boolean =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

const TOOL = 'refund\u001b]0;OWNED\u0007\u001b[2K\r\ud800';
const SERVER = 'shop\u001b[31m';
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

class HostileClient extends fakeClientClass() {
  override getServerVersion() {
    return { name: SERVER, version: '1' };
  }
}

describe('regression: names from an MCP server reached attributes raw', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('every metric and log attribute value is printable, well-formed text, whatever the catalog names', async () => {
    h = harness({ clock: new ManualClock(), logSampleRatio: 1 });
    await h.inst.ready();
    const client = new HostileClient();
    h.inst.instrumentMcpClient(client);
    client.tools = [
      {
        name: TOOL,
        inputSchema: {
          type: 'object',
          properties: { 'reason\u202ecode': { type: 'string', enum: ['DAMAGED', 'LATE'] } },
        },
      },
    ];
    await client.listTools();
    await h.inst.ready();
    await client.callTool({ name: TOOL, arguments: { 'reason\u202ecode': 'INVENTED' } });
    const collected = await h.collect();
    const values: string[] = [];
    for (const name of Object.keys(collected.points)) {
      for (const point of allPointsOf(collected, name)) {
        values.push(...Object.values(point.attributes).map(String));
      }
    }
    const records = h.records();
    expect(records.length).to.be.greaterThan(0);
    for (const record of records) {
      for (const [key, value] of Object.entries(record.attributes)) {
        // The emitted value is the model's, carried as it is by design; names are not.
        if (key !== ATTR_VALUE) values.push(String(value));
      }
    }
    const hostile = values.filter((v) => UNSAFE.test(v) || !wellFormed(v));
    expect(hostile).to.deep.equal([]);
    // The call was checked and counted under the tool's safe name.
    const tools = new Set(values.filter((v) => v.startsWith('refund')));
    expect([...tools]).to.have.length(1);
    expect([...tools][0]).to.match(/^refund\?\]0;OWNED\?\?\[2K\?\?~[0-9a-f]{12}$/);
    recordFigure(
      'hostile-catalog-names',
      `${values.length} attribute values of every series and record read back: ${hostile.length} with a control, bidi character or lone surrogate; the tool counted as \`${[...tools][0]}\``,
    );
  });
});
