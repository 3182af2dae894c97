import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import type { ReceivedCall } from './catalog.js';
import { createShopServerV1 } from './server-v1.js';
import { createShopServerV2 } from './server-v2.js';

/** The slice of both client lines the tests use. */
export interface ShopClient {
  callTool(params: {
    name: string;
    arguments?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  }): Promise<unknown>;
  listTools(params?: { cursor?: string }): Promise<{ tools: unknown[] }>;
  close(): Promise<void>;
}

export interface ShopConnection {
  readonly client: ShopClient;
  /** Every `tools/call` the server's transport received so far, in order. */
  received(): ReceivedCall[];
  /** In-memory servers only: change the reason codes (sends `tools/list_changed`). */
  setReasonCodes?(codes: readonly [string, ...string[]]): void;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Runs on the client before it connects (e.g. `instrumentClient`). */
  instrument?: (client: object) => void;
  /** Becomes `listChanged.tools.onChanged`: the SDK re-lists tools on the notification. */
  onToolsChanged?: (error: Error | null, tools: unknown[] | null) => void;
}

export interface ShopLine {
  readonly name: string;
  connect(options?: ConnectOptions): Promise<ShopConnection>;
}

const CLIENT_INFO = { name: 'argcheck-test', version: '0.0.0' };

function clientOptions(options: ConnectOptions) {
  const onChanged = options.onToolsChanged;
  // No debounce: the SDK's default would put a real timer between notification and re-list.
  return onChanged ? { listChanged: { tools: { onChanged, debounceMs: 0 } } } : {};
}

function script(name: string): string {
  return fileURLToPath(new URL(`./${name}`, import.meta.url));
}

/** Calls appended by a stdio child server; each line is written before the server handles the call. */
function recordFile(): { path: string; read(): ReceivedCall[]; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-mcp-'));
  const path = join(dir, 'received.jsonl');
  return {
    path,
    read() {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        return []; // Nothing has arrived yet: the server creates the file on the first call.
      }
      return text
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as ReceivedCall);
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sdkV1InMemory: ShopLine = {
  name: '@modelcontextprotocol/sdk 1.x over InMemoryTransport',
  async connect(options = {}) {
    const shop = createShopServerV1();
    const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
    await shop.connect(serverSide);
    const client = new ClientV1(CLIENT_INFO, clientOptions(options));
    options.instrument?.(client);
    await client.connect(clientSide);
    return {
      client,
      received: () => shop.received,
      setReasonCodes: (codes) => shop.setReasonCodes(codes),
      close: async () => {
        await client.close();
        await shop.server.close();
      },
    };
  },
};

export const clientV2InMemory: ShopLine = {
  name: '@modelcontextprotocol/client 2.x over InMemoryTransport',
  async connect(options = {}) {
    const shop = createShopServerV2();
    const [clientSide, serverSide] = InMemoryV2.createLinkedPair();
    await shop.connect(serverSide);
    const client = new ClientV2(CLIENT_INFO, clientOptions(options));
    options.instrument?.(client);
    await client.connect(clientSide);
    return {
      client,
      received: () => shop.received,
      setReasonCodes: (codes) => shop.setReasonCodes(codes),
      close: async () => {
        await client.close();
        await shop.server.close();
      },
    };
  },
};

export const sdkV1Stdio: ShopLine = {
  name: '@modelcontextprotocol/sdk 1.x over stdio (child process)',
  async connect(options = {}) {
    const record = recordFile();
    const client = new ClientV1(CLIENT_INFO, clientOptions(options));
    options.instrument?.(client);
    const env = { ...process.env, ARGCHECK_RECORD_FILE: record.path } as Record<string, string>;
    await client.connect(
      new StdioV1({ command: process.execPath, args: [script('stdio-v1.js')], env }),
    );
    return {
      client,
      received: () => record.read(),
      close: async () => {
        await client.close();
        record.remove();
      },
    };
  },
};

export const clientV2Stdio: ShopLine = {
  name: '@modelcontextprotocol/client 2.x with server 2.x over stdio (child process)',
  async connect(options = {}) {
    const record = recordFile();
    const client = new ClientV2(CLIENT_INFO, clientOptions(options));
    options.instrument?.(client);
    const env = { ...process.env, ARGCHECK_RECORD_FILE: record.path } as Record<string, string>;
    await client.connect(
      new StdioV2({ command: process.execPath, args: [script('stdio-v2.js')], env }),
    );
    return {
      client,
      received: () => record.read(),
      close: async () => {
        await client.close();
        record.remove();
      },
    };
  },
};

export const ALL_LINES: readonly ShopLine[] = [
  sdkV1InMemory,
  clientV2InMemory,
  sdkV1Stdio,
  clientV2Stdio,
];
