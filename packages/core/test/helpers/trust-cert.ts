/**
 * Make this process's `fetch` trust `cert` as its only root, until the
 * returned function restores what was there. For tests of a real HTTPS owner
 * with a throwaway certificate (`self-signed-cert.ts`); no production code
 * path takes a dispatcher or turns certificate checks off.
 *
 * Node's `fetch` is undici's, bundled: every request goes through the
 * dispatcher stored on `globalThis` under `Symbol.for('undici.globalDispatcher.1')`
 * (undici's `getGlobalDispatcher`), which undici sets to an `Agent` when it
 * loads. Node exports no `Agent`, so the one it installed lends its
 * constructor; `connect.ca` is passed to `tls.connect`.
 */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface Dispatcher {
  close(): Promise<void>;
}

export function trustOnly(cert: string): () => Promise<void> {
  void globalThis.fetch; // loading Node's undici installs its global Agent
  const slot = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  const installed = slot[GLOBAL_DISPATCHER];
  if (installed === undefined) {
    throw new Error(`this Node.js has no undici dispatcher at ${String(GLOBAL_DISPATCHER)}`);
  }
  const Agent = installed.constructor as new (options: { connect: { ca: string } }) => Dispatcher;
  const trusting = new Agent({ connect: { ca: cert } });
  slot[GLOBAL_DISPATCHER] = trusting;
  return async () => {
    slot[GLOBAL_DISPATCHER] = installed;
    await trusting.close();
  };
}
