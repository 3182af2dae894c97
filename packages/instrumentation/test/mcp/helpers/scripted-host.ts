import type { CheckOutcome } from '@argcheck/core';
import type { CheckEngine, DerivedCatalog, McpHost } from '../../../src/internal-types.js';

export interface ScriptedHost extends McpHost {
  /** What the configured engine answers; replace to script a test. */
  answer: (tool: string, args: unknown) => CheckOutcome;
  readonly derived: DerivedCatalog[];
  readonly logged: { level: string; args: unknown[] }[];
}

/** An `McpHost` whose engine answers whatever the test scripts, for failure paths. */
export function createScriptedHost(overrides: Partial<McpHost> = {}): ScriptedHost {
  const logged: ScriptedHost['logged'] = [];
  const log =
    (level: string) =>
    (...args: unknown[]) => {
      logged.push({ level, args });
    };
  const derived: DerivedCatalog[] = [];
  const host: ScriptedHost = {
    answer: (tool, args) => ({ tool, action: 'call', args, findings: [] }),
    mode: 'observe',
    configured: { check: (tool, args) => host.answer(tool, args) } satisfies CheckEngine,
    configuredArguments: {},
    deriveValueSets: true,
    maxCheckedArguments: 500,
    conversationIdFor: () => undefined,
    diag: {
      error: log('error'),
      warn: log('warn'),
      info: log('info'),
      debug: log('debug'),
      verbose: log('verbose'),
    },
    deriveEngine(_key, catalog) {
      derived.push(catalog);
      return { check: (tool, args) => host.answer(tool, args), ready: () => Promise.resolve() };
    },
    derived,
    logged,
    ...overrides,
  };
  return host;
}

/** A client class shaped like both SDK lines, recording what would go to the server. */
export function fakeClientClass() {
  return class FakeClient {
    readonly sent: unknown[][] = [];
    tools: unknown[] = [];
    callTool(...args: unknown[]): Promise<unknown> {
      this.sent.push(args);
      return Promise.resolve({ content: [{ type: 'text', text: 'from server' }] });
    }
    listTools(params?: { cursor?: string }): Promise<{ tools: unknown[] }> {
      void params;
      return Promise.resolve({ tools: this.tools });
    }
    getServerVersion(): { name: string; version: string } {
      return { name: 'fake', version: '1' };
    }
  };
}
