import type { DiagLogger } from '@opentelemetry/api';
import type { CheckOutcome } from '@argcheck/core';
import type { ToolListing } from '../../../src/catalog/derived-sets.js';
import { sentOf } from '../../../src/engine/engine.js';
import type { CallContext, Engine } from '../../../src/engine/engine.js';
import {
  patchCallTool,
  patchCallToolStream,
  patchListTools,
  tasksOf,
} from '../../../src/integrations/mcp/patches.js';
import { createHost } from '../../../src/kit/host.js';
import type { Host } from '../../../src/kit/host.js';

/** An engine whose answers a test scripts, for the MCP wrappers' own paths (failures included). */
export interface ScriptedEngine extends Engine {
  /** What a call is decided by; replace to script a test. */
  answer: (tool: string, args: unknown, ctx: CallContext | undefined) => CheckOutcome;
  /** Every listing handed to `toolsListed`. */
  readonly listings: { scope: object; listing: ToolListing }[];
  readonly logged: { level: string; args: unknown[] }[];
  readonly diag: DiagLogger;
  /** A host whose engine is this one, as an instrumentation lends its integrations. */
  readonly host: Host;
}

export function createScriptedEngine(): ScriptedEngine {
  const logged: ScriptedEngine['logged'] = [];
  const log =
    (level: string) =>
    (...args: unknown[]) => {
      logged.push({ level, args });
    };
  const listings: ScriptedEngine['listings'] = [];
  const diag: DiagLogger = {
    error: log('error'),
    warn: log('warn'),
    info: log('info'),
    debug: log('debug'),
    verbose: log('verbose'),
  };
  const decide: Engine['decide'] = (call) => {
    const outcome = engine.answer(call.tool, call.args, call.context);
    return outcome.action === 'reject' && outcome.repairMessage !== undefined
      ? { args: call.args, answer: outcome.repairMessage, outcome }
      : { args: outcome.args, answer: undefined, outcome };
  };
  const engine: ScriptedEngine = {
    answer: (tool, args) => ({ tool, action: 'call', args, findings: [] }),
    mode: 'observe',
    spanOutcome: false,
    valueSets: undefined as never,
    check: (tool, args, ctx) => engine.answer(tool, args, ctx),
    decide,
    decideSent(tool, args, scope, integration, context, source) {
      return sentOf(decide({ tool, args, context: () => context(source), scope, integration }));
    },
    invoke(call, run, answer) {
      const decision = decide(call);
      return decision.answer !== undefined ? answer(decision.answer) : run(decision.args);
    },
    outcomeOnSpan: () => undefined,
    sweep: () => undefined,
    toolsListed(scope, listing) {
      listings.push({ scope, listing });
      return undefined;
    },
    listed: () => true,
    inCatalog: () => false,
    wantsListing: () => false,
    catalogFor: () => undefined,
    start: () => undefined,
    ready: () => Promise.resolve(),
    statuses: () => [],
    close: () => undefined,
    listings,
    logged,
    diag,
    host: undefined as never,
  };
  Object.assign(engine, {
    host: createHost({
      engine: () => engine,
      diag: () => diag,
      deriveFrameworkSets: () => true,
      seen: () => undefined,
    }),
  });
  return engine;
}

/** Wrap one client's methods as `inst.instrumentMcpClient` does, around `engine`. */
export function instrumentClient(client: object, engine: ScriptedEngine): void {
  const target = client as Record<string, unknown>;
  const { host } = engine;
  host.wrapping.wrapInstance(target, 'callTool', patchCallTool(host));
  host.wrapping.wrapInstance(target, 'listTools', patchListTools(host));
  const tasks = tasksOf(target);
  if (tasks !== undefined) {
    host.wrapping.wrapInstance(tasks, 'callToolStream', patchCallToolStream(host));
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
