// Loaded by mocha (.mocharc.yml) before it defines its globals. OpenTelemetry's
// require-in-the-middle singleton looks for mocha's globals when its module
// loads and, finding them, gives every instrumentation a require hook of its
// own, never removed: a suite that makes hundreds of instances then wraps
// Module.prototype.require hundreds of times, and a deep require (Mastra,
// LangChain on Node 24) overflows the stack. Loaded first, it keeps one hook
// for the process, as an application has. Both builds: OpenTelemetry JS 3.x
// ships separate ESM and CommonJS copies, and the tests load each.
import { createRequire } from 'node:module';
import '@opentelemetry/instrumentation';

createRequire(import.meta.url)('@opentelemetry/instrumentation');

// For test/setup/setup-first.test.ts: that this file ran, and before mocha's globals.
globalThis[Symbol.for('argcheck.test.setup-first')] = {
  mochaGlobals: typeof globalThis.describe === 'function',
};
