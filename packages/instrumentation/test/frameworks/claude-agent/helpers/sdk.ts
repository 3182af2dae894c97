/**
 * The real Claude Agent SDK and its binary, run offline: the binary's only
 * connection is to a scripted Messages API on loopback
 * (`@argcheck/testing/messages-api`), with a home, a config directory and a
 * working directory of its own.
 *
 * The SDK is not a dependency of the workspace (its binary is about 400 MB):
 * `npm run test:versions -- claude-agent` installs each supported version
 * and runs these tests against it (docs/decisions/0029-claude-agent-sdk.md).
 * Elsewhere they are skipped, saying so — except where the run requires the
 * package (`ARGCHECK_REQUIRE_PACKAGE`, set by that script): there a missing
 * SDK fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as ZodModule from 'zod';
import { scriptedMessagesApi } from '@argcheck/testing/messages-api';
import type { ScriptedMessagesApi, ScriptedTurn } from '@argcheck/testing/messages-api';

const require = createRequire(import.meta.url);

export const CLAUDE_AGENT_SDK = '@anthropic-ai/claude-agent-sdk';

/** A tool handler of an in-process server, as `tool()` takes it. */
export type Handler = (args: Record<string, unknown>, extra: unknown) => Promise<unknown>;

/** A query's message stream. */
export type QueryLike = AsyncIterable<unknown>;

/** The parts of the SDK's exports these tests use (its own types are not installed in the workspace). */
export interface ClaudeAgentSdk {
  query(params: { prompt: string; options?: object }): QueryLike;
  startup?(params?: { options?: object }): Promise<{ query(prompt: string): QueryLike }>;
  prewarm?(params?: { options?: object }): Promise<{
    claim(params: { prompt: string; options: object }): QueryLike;
    claimed: Promise<unknown>;
    close(): void;
  }>;
  tool(
    name: string,
    description: string,
    shape: Record<string, unknown>,
    handler: Handler,
    extras?: { alwaysLoad?: boolean },
  ): object;
  createSdkMcpServer(options: { name: string; version?: string; tools?: object[] }): object;
}

/** Why the SDK cannot run here, or `undefined`. Throws where the run requires it. */
export function claudeAgentUnavailable(): string | undefined {
  try {
    require.resolve(CLAUDE_AGENT_SDK);
    return undefined;
  } catch {
    const required = (process.env.ARGCHECK_REQUIRE_PACKAGE ?? '').split(',');
    if (required.includes(CLAUDE_AGENT_SDK)) {
      throw new Error(`${CLAUDE_AGENT_SDK} is required in this run and cannot be resolved`);
    }
    return `needs ${CLAUDE_AGENT_SDK}, not installed in the workspace: npm run test:versions -- claude-agent runs these`;
  }
}

/** What a suite's title says where the SDK cannot run (reporters print titles before hooks run). */
export function unlessSdk(): string {
  const why = claudeAgentUnavailable();
  return why === undefined ? '' : ` (skipped: ${why})`;
}

/** Skip the suite where the SDK cannot run (its title says why: `unlessSdk`). */
export function skipWithoutSdk(ctx: Mocha.Context): void {
  if (claudeAgentUnavailable() !== undefined) ctx.skip();
}

/**
 * The SDK through `require` (its ESM build; Node 20.19+ and 22+): the
 * require hook of an instrumentation registered before hands back a patched
 * copy of its namespace.
 */
export function requireSdk(): ClaudeAgentSdk {
  return require(CLAUDE_AGENT_SDK) as ClaudeAgentSdk;
}

/** The zod the tests define tools with (the application's, as the SDK's `tool()` takes it). */
export function zod(): typeof ZodModule.z {
  return (require('zod') as typeof ZodModule).z;
}

/** The model every offline query asks for. */
export const MODEL = 'claude-scripted-1';

export interface Offline {
  readonly api: ScriptedMessagesApi;
  /** Query options that keep the binary offline, with `more` on top. */
  options(more?: Record<string, unknown>): Record<string, unknown>;
  close(): Promise<void>;
}

/** A scripted Messages API with `turns`, and options whose binary talks to nothing else. */
export async function offline(turns: readonly ScriptedTurn[]): Promise<Offline> {
  const api = await scriptedMessagesApi(turns);
  const home = mkdtempSync(join(tmpdir(), 'argcheck-claude-'));
  return {
    api,
    options: (more = {}) => ({
      model: MODEL,
      cwd: home,
      settingSources: [],
      // Replaces the binary's whole environment: nothing of this process leaks in.
      env: {
        PATH: process.env.PATH,
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: 'scripted',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        // MCP tools in the model's `tools`, not behind the SDK's tool search.
        ENABLE_TOOL_SEARCH: 'false',
      },
      ...more,
    }),
    async close() {
      await api.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Read a query to its end. */
export async function drain(query: QueryLike): Promise<unknown[]> {
  const messages: unknown[] = [];
  for await (const message of query) messages.push(message);
  return messages;
}

/**
 * What the model read for a rejected call: the SDK puts a hook's deny reason
 * after `PreToolUse:<tool> hook error: ` (some versions send the reason alone).
 */
export function denyReason(text: string): string {
  return text.replace(/^PreToolUse:\S+ hook error: /, '');
}
