import { expect } from 'chai';
import { functionValueSet, httpValueSet } from '../../src/index.js';
import { PackedStrings } from '../../src/match/packed-strings.js';
import type { CollectedValues } from '../../src/match/value-collector.js';
import { COLLECT, type Collected, collectFrom } from '../../src/sources/collect.js';
import { collectPayloadInTurns } from '../../src/sources/parse-payload.js';
import { asPayloadError } from '../../src/sources/payload-error.js';
import type { HttpValueSetOptions, ValueSetSource } from '../../src/types.js';
import { HttpOwner } from '@argcheck/testing/owners';
import { collectedOf } from '../helpers/loaded.js';

const ctx = () => ({ signal: new AbortController().signal });

/** Collected values as plain data: every value in arrival order, aliases by position. */
function plain(collected: CollectedValues) {
  const { values } = collected;
  return {
    values: Array.from({ length: values.count }, (_, i) => values.stringAt(i)),
    aliases: [...collected.aliases],
    longest: collected.longest,
  };
}

/** What a read ended in: the collected values, or the payload rejection (or message) it failed with. */
async function outcome(reading: Promise<CollectedValues>) {
  try {
    return { ok: plain(await reading) };
  } catch (error) {
    return { failed: asPayloadError(error) ?? (error as Error).message };
  }
}

/** The provider's read, and the public `load()` read the same way. */
async function bothReads(source: ValueSetSource) {
  return {
    collected: await outcome(collectFrom(source, ctx()).then(collectedOf)),
    loaded: await outcome(
      source.load(ctx()).then((entries) => collectPayloadInTurns(entries, ctx().signal)),
    ),
  };
}

describe('collectFrom: what the provider reads from a source', () => {
  const owner = new HttpOwner();
  before(() => owner.start());
  after(() => owner.close());

  const ids = Array.from({ length: 20_000 }, (_, i) => `CMP-"${i % 7_000}"-\u00E9,]`);
  const text = (list: readonly unknown[]): string =>
    ` [\n${list.map((x) => JSON.stringify(x)).join(',\n')}\n] \n`;
  /** Serve `body` in 997-byte chunks, cut across strings, escapes and characters, with no length. */
  const chunked = (path: string, body: string): string =>
    owner.on(path, (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const bytes = Buffer.from(body);
      for (let at = 0; at < bytes.length; at += 997) res.write(bytes.subarray(at, at + 997));
      res.end();
    });

  const bodies: { title: string; url: () => string; options?: HttpValueSetOptions }[] = [
    { title: 'an array of strings', url: () => owner.json('/strings', ['LATE', 'OTHER', 'LATE']) },
    {
      title: 'a large array with repeats, streamed in chunks with no declared length',
      url: () => chunked('/large', text(ids)),
    },
    {
      title: 'a large array with a declared length',
      url: () => owner.json('/declared', text(ids)),
    },
    {
      title: 'entries with aliases, mixed with strings',
      url: () =>
        owner.json('/entries', [
          { value: 'DUPLICATE_CHARGE', aliases: ['Charged twice', 'double charge'] },
          'LATE',
          { value: 'OTHER' },
          { value: 'DUPLICATE_CHARGE', aliases: ['charged 2x'] },
        ]),
    },
    { title: '{ values: [...] }', url: () => owner.json('/wrapped', { values: ['LATE'] }) },
    {
      title: 'a body picked out with select',
      url: () => owner.json('/custom', { data: ['LATE', 'OTHER'] }),
      options: { select: (body) => (body as { data: unknown }).data },
    },
    { title: 'an empty array', url: () => owner.json('/empty', []) },
    {
      title: 'an array with a number far into it',
      url: () => chunked('/number', text([...ids.slice(0, 15_000), 42, ...ids.slice(15_000)])),
    },
    {
      title: 'an array with an entry whose aliases are not strings',
      url: () => owner.json('/bad-aliases', ['LATE', { value: 'OTHER', aliases: [1] }]),
    },
    {
      title: 'an array cut short',
      url: () => chunked('/cut', text(ids).slice(0, 50_000)),
    },
    {
      title: 'an array with a trailing comma',
      url: () => chunked('/trailing', `[${ids.map((id) => JSON.stringify(id)).join(',')},]`),
    },
    { title: 'a body that is not JSON', url: () => owner.json('/html', '<html>') },
  ];

  for (const { title, url, options } of bodies) {
    it(`reads ${title} from an HTTP owner as load() does`, async () => {
      const { collected, loaded } = await bothReads(httpValueSet(url(), options));
      expect(collected).to.deep.equal(loaded);
    });
  }

  it('reads the values of a large streamed array in order, repeats included', async () => {
    const { collected } = await bothReads(httpValueSet(chunked('/order', text(ids))));
    expect(collected.ok?.values).to.deep.equal(ids);
  });

  it('names the element that is neither a string nor an entry', async () => {
    const url = chunked('/number-again', text([...ids.slice(0, 15_000), 42]));
    expect((await bothReads(httpValueSet(url))).collected).to.deep.equal({
      failed: {
        rejection: 'malformed',
        detail:
          'element 15000 is a number; expected a string or { value: string, aliases?: string[] }',
      },
    });
  });

  it("uses a source's own collecting read when it has one: httpValueSet does", async () => {
    const marker: Collected = {
      unchanged: false,
      collected: { values: PackedStrings.of(['A']), aliases: new Map(), longest: 1 },
      version: undefined,
    };
    const source = {
      kind: 'function' as const,
      load: () => Promise.resolve([{ value: 'B' }]),
      [COLLECT]: () => Promise.resolve(marker),
    };
    expect(await collectFrom(source, ctx())).to.equal(marker);
    expect(httpValueSet(owner.url('/any')))
      .to.have.property(COLLECT)
      .that.is.a('function');
  });

  it('reads any other source through its load()', async () => {
    const source = functionValueSet(() => ({
      values: ['LATE', { value: 'OTHER', aliases: ['x'] }],
    }));
    expect(await outcome(collectFrom(source, ctx()).then(collectedOf))).to.deep.equal({
      ok: { values: ['LATE', 'OTHER'], aliases: [[1, ['x']]], longest: 5 },
    });
  });
});
