import { spawn } from 'node:child_process';
import { fileURLToPath, URL } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./owner-process.mjs', import.meta.url));

/** Start bench/lib/owner-process.mjs serving `size` ids; resolves once it listens. */
export function startOwnerProcess(size, seed) {
  const child = spawn(process.execPath, [SCRIPT, String(size), String(seed)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`owner process exited (${code})`)));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const { port, bytes } = JSON.parse(out);
      child.removeAllListeners('exit');
      resolve({
        url: `http://127.0.0.1:${port}/value-sets/catalog`,
        bytes,
        close: () =>
          new Promise((done) => {
            child.once('exit', done);
            child.stdin.end();
          }),
      });
    });
  });
}
