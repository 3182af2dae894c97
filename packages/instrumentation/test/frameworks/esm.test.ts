import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import {
  expectedAnswers,
  expectedCounters,
  expectedReceived,
  MODES,
  repairMessage,
} from './refund-scenario.js';

const exec = promisify(execFile);
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Run the ESM probe in its own Node process (loader hooks cannot be added to a running one). */
async function probe(nodeArgs: string[], args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await exec(process.execPath, [...nodeArgs, fixture('esm-probe.js'), ...args], {
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

async function expected(): Promise<Record<string, unknown>> {
  const repair = await repairMessage();
  return Object.fromEntries(
    MODES.map((mode) => [
      mode,
      {
        received: expectedReceived(mode),
        answers: expectedAnswers(mode, repair),
        counters: expectedCounters(mode),
      },
    ]),
  );
}

const HOOK = ['--import', fixture('register.js')];

for (const framework of ['openai-agents', 'langchain']) {
  describe(`${framework} — ESM build, in a child process`, function () {
    this.timeout(120_000);

    it('with the loader hook registered (module.register in an --import file), the framework is patched', async () => {
      expect(await probe(HOOK, [framework])).to.deep.equal(await expected());
    });

    it('without loader hooks, the explicit entry point checks each call', async () => {
      expect(await probe([], [framework])).to.deep.equal(await expected());
    });

    it('patched and through the explicit entry point, each call counts once', async () => {
      expect(await probe(HOOK, [framework, 'explicit'])).to.deep.equal(await expected());
    });
  });
}
