// What a fleet's refreshes cost the owner of a value set, and each process,
// with and without conditional requests (ETag / If-None-Match), for a set that
// did not change and one that did; and how the refresh jitter spreads a fleet
// started together. Imports only @argcheck/core's public entry point. Its
// figures are in docs/scaling.md, not docs/benchmarks.md: it runs only when named.
//   npm run bench -- --only owner-load [-- --sizes 100000,1000000 --fleet 100 --providers-1m 4]
//
// The owner runs in a child process (this file again, with --serve), so that
// serving a body costs the measured process nothing, and counts the requests
// and the bytes it writes per path: `/conditional` sends an ETag and answers
// a matching If-None-Match with 304, `/plain` sends no validator (what every
// owner got before conditional requests). A fleet of processes is simulated
// by providers in this process, each with its own set, refreshed one after
// another (`refresh()`): each is what one process does at its TTL. The
// process CPU of each refresh is `process.cpuUsage()` around it.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  type Clock,
  createValueSetProvider,
  httpValueSet,
  type ValueSetProvider,
} from '@argcheck/core';
import { num, type BenchOptions, type BenchResult } from './lib/report.js';
import { median } from './lib/stats.js';

const SET = 'catalog';
const TTL_MS = 300_000;
const MAX_BYTES = 64 * 2 ** 20;

/** Member `i` of a deterministic list of distinct ids (`i × odd` is a bijection mod 2³²). */
const id = (i: number, version: number): string =>
  `cmp-${(Math.imul(i, 2_654_435_761) >>> 0).toString(36).padStart(7, '0')}-${i === 0 ? version : 0}`;

// ---- the owner (child process) -----------------------------------------------

function serve(size: number): void {
  let version = 1;
  let body = Buffer.from('');
  const render = (): void => {
    body = Buffer.from(JSON.stringify(Array.from({ length: size }, (_, i) => id(i, version))));
  };
  render();
  const counts: Counts = {};
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    if (path === '/stats') return void res.end(JSON.stringify(counts));
    if (path === '/change') {
      version++;
      render();
      return void res.end(JSON.stringify({ version }));
    }
    if (path !== '/conditional' && path !== '/plain') return void res.writeHead(404).end();
    const count = (counts[path] ??= { requests: 0, bytes: 0, notModified: 0 });
    const socket = res.socket as Socket;
    const before = socket.bytesWritten;
    res.on('finish', () => {
      count.requests++;
      count.bytes += socket.bytesWritten - before;
    });
    const etag = `"v${version}"`;
    if (path === '/conditional' && req.headers['if-none-match'] === etag) {
      count.notModified++;
      return void res.writeHead(304, { etag }).end();
    }
    const validators = path === '/conditional' ? { etag } : {};
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': body.length,
      ...validators,
    });
    res.end(body);
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ port, bytes: body.length })}\n`);
  });
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

type Counts = Record<string, { requests: number; bytes: number; notModified: number } | undefined>;

interface Owner {
  base: string;
  bytes: number;
  stats(): Promise<Counts>;
  change(): Promise<void>;
  close(): Promise<void>;
}

function startOwner(size: number): Promise<Owner> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', String(size)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const { port, bytes } = JSON.parse(out) as { port: number; bytes: number };
      const base = `http://127.0.0.1:${port}`;
      resolve({
        base,
        bytes,
        stats: async () => (await (await fetch(`${base}/stats`)).json()) as Counts,
        change: async () => void (await (await fetch(`${base}/change`)).text()),
        close: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.stdin.end();
          }),
      });
    });
  });
}

// ---- part 1: owner load and process CPU per refresh ---------------------------

interface Cycle {
  size: number;
  conditional: boolean;
  changed: boolean;
  providers: number;
  /** At the owner, for the `providers` refreshes. */
  requests: number;
  bytes: number;
  notModified: number;
  /** Per refresh, in this process. */
  cpuMs: number[];
  wallMs: number[];
}

async function fleetCycles(size: number, providers: number): Promise<Cycle[]> {
  const owner = await startOwner(size);
  const cycles: Cycle[] = [];
  try {
    for (const conditional of [false, true]) {
      const path = conditional ? '/conditional' : '/plain';
      const fleet: ValueSetProvider[] = [];
      for (let p = 0; p < providers; p++) {
        const provider = createValueSetProvider({
          sources: { [SET]: httpValueSet(`${owner.base}${path}`, { maxBytes: MAX_BYTES }) },
          fetchTimeoutMs: 60_000,
        });
        await provider.ready();
        fleet.push(provider);
      }
      for (const changed of [false, true]) {
        if (changed) await owner.change();
        const before = (await owner.stats())[path] ?? { requests: 0, bytes: 0, notModified: 0 };
        const cpuMs: number[] = [];
        const wallMs: number[] = [];
        for (const provider of fleet) {
          const cpu = process.cpuUsage();
          const start = performance.now();
          await provider.refresh(SET);
          wallMs.push(performance.now() - start);
          const used = process.cpuUsage(cpu);
          cpuMs.push((used.user + used.system) / 1_000);
        }
        const after = (await owner.stats())[path] ?? before;
        const failed = fleet.filter((p) => p.status()[0]?.lastError !== undefined);
        if (failed.length > 0) throw new Error(`${failed.length} refreshes failed`);
        cycles.push({
          size,
          conditional,
          changed,
          providers,
          requests: after.requests - before.requests,
          bytes: after.bytes - before.bytes,
          notModified: after.notModified - before.notModified,
          cpuMs,
          wallMs,
        });
      }
      for (const provider of fleet) provider.close();
    }
  } finally {
    await owner.close();
  }
  return cycles;
}

// ---- part 2: how jitter spreads a fleet started together ----------------------

/** A clock that moves only when told; timers fire in order. */
class SteppedClock implements Clock {
  private current = 0;
  private timers: { at: number; id: number; fn: () => void }[] = [];
  private next = 1;
  now = (): number => this.current;
  setTimeout = (fn: () => void, ms: number): unknown => {
    const timer = { at: this.current + ms, id: this.next++, fn };
    this.timers.push(timer);
    return timer.id;
  };
  clearTimeout = (handle: unknown): void => {
    this.timers = this.timers.filter((t) => t.id !== handle);
  };
  /** Move to `to`, firing every timer due on the way. */
  advance(to: number): void {
    for (;;) {
      const due = this.timers
        .filter((t) => t.at <= to)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = due.at;
      due.fn();
    }
    this.current = to;
  }
}

/** A seeded generator in [0, 1) (mulberry32), so that the spread is the same every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

interface Spread {
  refreshJitter: number;
  /** Owner requests in each second of the first two TTLs after a fleet started together. */
  perSecond: number[];
}

async function spread(fleetSize: number, refreshJitter: number): Promise<Spread> {
  const owner = await startOwner(1_000);
  const clock = new SteppedClock();
  const random = seeded(7);
  try {
    const fleet = Array.from({ length: fleetSize }, () =>
      createValueSetProvider({
        sources: { [SET]: httpValueSet(`${owner.base}/conditional`) },
        clock,
        random,
        refreshJitter,
      }),
    );
    await Promise.all(fleet.map((p) => p.ready()));
    const perSecond: number[] = [];
    let seen = (await owner.stats())['/conditional']?.requests ?? 0;
    // One second at a time; each second's refreshes land before the clock moves on.
    for (let s = 1; s <= (2 * TTL_MS) / 1_000; s++) {
      clock.advance(s * 1_000);
      await Promise.all(fleet.map((p) => p.ready()));
      const now = (await owner.stats())['/conditional']?.requests ?? 0;
      perSecond.push(now - seen);
      seen = now;
    }
    for (const p of fleet) p.close();
    return { refreshJitter, perSecond };
  } finally {
    await owner.close();
  }
}

// ---- report ---------------------------------------------------------------------

const mib = (bytes: number): string =>
  bytes >= 2 ** 20 ? `${num(bytes / 2 ** 20, 1)} MiB` : `${num(bytes / 1024, 1)} KiB`;

export async function ownerLoad(options: BenchOptions): Promise<BenchResult> {
  const sizes = options.string('sizes', '100000,1000000').split(',').map(Number);
  const fleet = options.number('fleet', 100);
  const providers1m = options.number('providers-1m', 4);
  const loadRows: string[][] = [];
  for (const size of sizes) {
    const providers = size >= 1_000_000 ? Math.min(providers1m, fleet) : fleet;
    for (const c of await fleetCycles(size, providers)) {
      const scale = fleet / providers;
      loadRows.push([
        num(size),
        c.changed ? 'changed' : 'unchanged',
        c.conditional ? 'yes' : 'no',
        `${num(c.requests * scale)} (${num(c.notModified * scale)} × 304)`,
        mib(c.bytes * scale),
        `${num(median(c.cpuMs), 1)} ms`,
        `${num(median(c.wallMs), 1)} ms`,
        String(c.providers),
      ]);
      console.log(`| ${loadRows.at(-1)?.join(' | ')} |`);
    }
  }
  const spreadRows: string[][] = [];
  const ttlS = TTL_MS / 1_000;
  for (const jitter of [0, 0.1]) {
    const { perSecond } = await spread(fleet, jitter);
    for (const [n, from] of [
      ['first', 0],
      ['second', ttlS],
    ] as const) {
      const window = perSecond.slice(from, from + ttlS);
      const busy = window.flatMap((count, s) => (count > 0 ? [from + s + 1] : []));
      spreadRows.push([
        String(jitter),
        n,
        String(Math.max(...window)),
        String(busy.length),
        `${busy[0] ?? '–'} – ${busy.at(-1) ?? '–'} s`,
      ]);
      console.log(`| ${spreadRows.at(-1)?.join(' | ')} |`);
    }
  }
  return {
    title: "A fleet's refreshes at the owner, with and without conditional requests",
    method:
      `A fleet of ${fleet} processes, one refresh each per TTL, simulated by providers in one ` +
      'process (the owner in its own process, on loopback, counting requests and bytes); at ' +
      `1,000,000 members ${Math.min(providers1m, fleet)} providers, whose owner figures are ` +
      'scaled to the fleet. CPU is user + system time around each refresh. The second table: ' +
      `owner requests per second for a fleet of ${fleet} started together (TTL ${ttlS} s; fake ` +
      'clock, seeded `random`, real requests). See docs/scaling.md.',
    tables: [
      {
        head: [
          'members',
          'set',
          'conditional',
          'owner requests per TTL',
          'owner bytes per TTL',
          'CPU per refresh (median)',
          'wall per refresh (median)',
          'providers measured',
        ],
        rows: loadRows,
      },
      {
        head: [
          'refreshJitter',
          'TTL',
          'busiest second',
          'seconds with a request',
          'first – last request',
        ],
        rows: spreadRows,
      },
    ],
    bars: [],
  };
}

if (process.argv[2] === '--serve') serve(Number(process.argv[3]));
