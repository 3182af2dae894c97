import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A throwaway self-signed certificate for `127.0.0.1`, made in memory for one
 * test run so that a real HTTPS owner can listen on loopback. Built here, in
 * DER, with `node:crypto` alone: Node cannot issue certificates, and the
 * `openssl` command is not on every machine that runs the tests. Nothing is
 * written to disk and no key is committed.
 *
 * The certificate is an X.509 v3 certificate with an ECDSA P-256 key, valid
 * from an hour ago for a day, naming 127.0.0.1 as its subject alternative
 * name, and marked as a CA so that a client can trust it as its own anchor.
 */
/** `serial` is the certificate's serial number, big-endian (random unless a test needs one). */
export function selfSignedCert(serial: Buffer = randomBytes(8)): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from('127.0.0.1')))));
  const now = Date.now();
  const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaWithSha256,
    name,
    seq(utcTime(now - 3_600_000), utcTime(now + 86_400_000)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(
      0xa3,
      seq(
        // basicConstraints, critical, CA:TRUE
        seq(
          oid('2.5.29.19'),
          tlv(0x01, Buffer.from([0xff])),
          octets(seq(tlv(0x01, Buffer.from([0xff])))),
        ),
        // subjectAltName: iPAddress 127.0.0.1
        seq(oid('2.5.29.17'), octets(seq(tlv(0x87, Buffer.from([127, 0, 0, 1]))))),
      ),
    ),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const der = seq(tbs, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const body = der.toString('base64').replace(/.{1,64}/g, '$&\n');
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${body}-----END CERTIFICATE-----\n`,
  };
}

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length =
    n < 0x80
      ? Buffer.from([n])
      : n < 0x100
        ? Buffer.from([0x81, n])
        : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const octets = (content: Buffer): Buffer => tlv(0x04, content);

/**
 * A non-negative INTEGER in DER's one encoding: leading zero bytes dropped
 * (OpenSSL refuses them as "illegal padding"; a random serial starts with
 * one in 1 of 512 runs), and one put back where the top bit would read as a sign.
 */
export function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const minimal = bytes.subarray(start);
  return tlv(0x02, minimal[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let v = arc >> 7; v > 0; v >>= 7) base128.unshift((v & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(ms: number): Buffer {
  const iso = new Date(ms).toISOString(); // 2026-05-01T12:34:56.789Z
  const text =
    iso.slice(2, 4) +
    iso.slice(5, 7) +
    iso.slice(8, 10) +
    iso.slice(11, 13) +
    iso.slice(14, 16) +
    iso.slice(17, 19) +
    'Z';
  return tlv(0x17, Buffer.from(text));
}

/**
 * Make this process's `fetch` trust `cert` as its only root, until the
 * returned function restores what was there. For a real HTTPS owner with a
 * throwaway certificate; no production code path takes a dispatcher or turns
 * certificate checks off.
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
