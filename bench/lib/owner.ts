import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./owner-process.js', import.meta.url));

export interface OwnerProcess {
  /** `http://127.0.0.1:<port>/value-sets/catalog` */
  url: string;
  /** Size of the JSON body it serves. */
  bytes: number;
  close(): Promise<void>;
}

/** Start owner-process.js serving `size` ids; resolves once it listens. */
export function startOwnerProcess(size: number, seed: number): Promise<OwnerProcess> {
  const child = spawn(process.execPath, [SCRIPT, String(size), String(seed)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`owner process exited (${code})`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const { port, bytes } = JSON.parse(out) as { port: number; bytes: number };
      child.removeAllListeners('exit');
      resolve({
        url: `http://127.0.0.1:${port}/value-sets/catalog`,
        bytes,
        close: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.stdin.end();
          }),
      });
    });
  });
}
