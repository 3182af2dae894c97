import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { recordFigure } from '@argcheck/testing/figures';

// Defect: the demo's resource had service.name but no service.instance.id.
// The collector's Prometheus exporter takes `instance` from
// service.instance.id; without one the series had no instance label and
// Prometheus (honor_labels) gave them the collector's own address
// (127.0.0.1:8889). Two demo runs, or a demo and another process of the same
// name, would then have written one set of cumulative series and the last
// writer would have won (DESIGN: every process needs a distinct identity).

const BIN = fileURLToPath(new URL('../../src/bin.js', import.meta.url));
const run = promisify(execFile);

interface OtlpBody {
  resourceMetrics?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
  }[];
  resourceLogs?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
  }[];
}

/** Each resource's service.name and service.instance.id in the OTLP/JSON bodies received. */
function identities(bodies: string[]): { name?: string; instance?: string }[] {
  return bodies.flatMap((body) => {
    const parsed = JSON.parse(body) as OtlpBody;
    return [...(parsed.resourceMetrics ?? []), ...(parsed.resourceLogs ?? [])].map((r) => {
      const attribute = (key: string): string | undefined =>
        r.resource?.attributes?.find((a) => a.key === key)?.value.stringValue;
      return { name: attribute('service.name'), instance: attribute('service.instance.id') };
    });
  });
}

async function demoIdentities(): Promise<{ name?: string; instance?: string }[]> {
  const bodies: string[] = [];
  const sink = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  try {
    const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
    await run(process.execPath, [BIN, 'demo', '--duration', '1', '--json', '--otlp', endpoint]);
  } finally {
    sink.close();
  }
  return identities(bodies);
}

describe('regression: the demo’s series took the collector’s address as their instance', () => {
  it('gives every export of a run one service.instance.id, and each run its own', async function () {
    this.timeout(60_000);
    const first = await demoIdentities();
    const second = await demoIdentities();
    expect(first).to.not.be.empty;
    const ids = (list: typeof first): string[] => [
      ...new Set(list.map((i) => `${i.name} ${i.instance}`)),
    ];
    expect(ids(first)).to.have.length(1);
    expect(ids(second)).to.have.length(1);
    expect(first[0]?.name).to.equal('argcheck-demo');
    expect(first[0]?.instance).to.match(/^argcheck-demo-[0-9a-f-]{36}$/);
    expect(second[0]?.instance).to.match(/^argcheck-demo-[0-9a-f-]{36}$/);
    expect(first[0]?.instance).to.not.equal(second[0]?.instance);
    recordFigure(
      'demo-instance-id',
      `2 runs (${first.length} and ${second.length} exported resources): ${ids(first).length} and ${ids(second).length} \`service.instance.id\` per run, each \`argcheck-demo-<uuid>\`, different between the runs`,
    );
  });
});
