import type { DiagLogger } from '@opentelemetry/api';
import type { CheckOutcome } from '@argcheck/core';
import type { ToolListing } from '../../../src/catalog/derived-sets.js';
import type { CallContext, Engine } from '../../../src/engine.js';
import {
  patchCallTool,
  patchCallToolStream,
  patchListTools,
  tasksOf,
} from '../../../src/mcp/patches.js';
import { wrapInstanceMethod } from '../../../src/wrapping.js';

/** An engine whose answers a test scripts, for the MCP wrappers' own paths (failures included). */
export interface ScriptedEngine extends Engine {
  /** What `check` answers; replace to script a test. */
  answer: (tool: string, args: unknown, ctx: CallContext | undefined) => CheckOutcome;
  readonly listed: { scope: object; listing: ToolListing }[];
  readonly logged: { level: string; args: unknown[] }[];
  readonly diag: DiagLogger;
}

export function createScriptedEngine(): ScriptedEngine {
  const logged: ScriptedEngine['logged'] = [];
  const log =
    (level: string) =>
    (...args: unknown[]) => {
      logged.push({ level, args });
    };
  const listed: ScriptedEngine['listed'] = [];
  const engine: ScriptedEngine = {
    answer: (tool, args) => ({ tool, action: 'call', args, findings: [] }),
    mode: 'observe',
    spanOutcome: false,
    valueSets: undefined as never,
    check: (tool, args, ctx) => engine.answer(tool, args, ctx),
    invoke(call, run, answer) {
      const outcome = engine.answer(call.tool, call.args, call.context);
      return outcome.action === 'reject' && outcome.repairMessage !== undefined
        ? answer(outcome.repairMessage)
        : run(outcome.args);
    },
    outcomeOnSpan: () => undefined,
    toolsListed(scope, listing) {
      listed.push({ scope, listing });
      return undefined;
    },
    catalogFor: () => undefined,
    ready: () => Promise.resolve(),
    statuses: () => [],
    close: () => undefined,
    listed,
    logged,
    diag: {
      error: log('error'),
      warn: log('warn'),
      info: log('info'),
      debug: log('debug'),
      verbose: log('verbose'),
    },
  };
  return engine;
}

/** Wrap one client's methods as `inst.instrumentMcpClient` does, around `engine`. */
export function instrumentClient(client: object, engine: ScriptedEngine): void {
  const target = client as Record<string, unknown>;
  wrapInstanceMethod(
    target,
    'callTool',
    patchCallTool(() => engine, engine.diag),
  );
  wrapInstanceMethod(
    target,
    'listTools',
    patchListTools(() => engine, engine.diag),
  );
  const tasks = tasksOf(target);
  if (tasks !== undefined) {
    wrapInstanceMethod(
      tasks,
      'callToolStream',
      patchCallToolStream(() => engine, engine.diag),
    );
  }
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
