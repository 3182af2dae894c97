import { execFile } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { useTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('../../../', import.meta.url));
const REPO = realpathSync(join(PACKAGE_DIR, '..', '..'));
const bin = join(PACKAGE_DIR, 'bin', 'argcheck.js');
const index = join(PACKAGE_DIR, 'build', 'src', 'index.js');

/** A resolve hook (module.register) that appends every module URL Node loads to $RESOLVED_LOG. */
const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.RESOLVED_LOG, result.url + '\\n');
  return result;
}`;
const REGISTER = `
import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

/** The package a loaded file belongs to: its node_modules name, or the workspace package's. */
function packageOf(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  const path = fileURLToPath(url);
  const modules = path.lastIndexOf(`${sep}node_modules${sep}`);
  if (modules >= 0) {
    const parts = path.slice(modules + 14).split(sep);
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const workspace = join(REPO, 'packages') + sep;
  if (!path.startsWith(workspace)) return undefined;
  const dir = path.slice(workspace.length).split(sep)[0] ?? '';
  const manifest = join(workspace, dir, 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name;
}

describe('regression: argcheck report loaded the OpenTelemetry SDK, the MCP SDK and zod', () => {
  const dir = useTempDir();

  /** The packages a Node process running `args` loads, sorted. */
  async function packagesLoaded(args: string[]): Promise<string[]> {
    const log = dir.path('resolved.log');
    await run(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, ...args],
      { env: { ...process.env, RESOLVED_LOG: log } },
    );
    const urls = readFileSync(log, 'utf8').split('\n');
    return [...new Set(urls.map(packageOf).filter((p) => p !== undefined))].sort();
  }

  it('argcheck report --help loads argcheck’s own packages and nothing else', async () => {
    expect(await packagesLoaded([bin, 'report', '--help'])).to.deep.equal([
      '@argcheck/cli',
      '@argcheck/core',
      '@argcheck/instrumentation',
    ]);
  });

  it('the library entry (readReport and the renderers) loads the same', async () => {
    const script = `await import(${JSON.stringify(pathToFileURL(index).href)});`;
    expect(await packagesLoaded(['--input-type=module', '-e', script])).to.deep.equal([
      '@argcheck/cli',
      '@argcheck/core',
      '@argcheck/instrumentation',
    ]);
  });

  it('argcheck demo --help loads the demo’s dependencies (the hook sees what is loaded)', async () => {
    const loaded = await packagesLoaded([bin, 'demo', '--help']);
    expect(loaded).to.include.members([
      '@modelcontextprotocol/sdk',
      '@opentelemetry/sdk-logs',
      '@opentelemetry/sdk-metrics',
    ]);
  });
});
