import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';

/** The shop server's resource that reports the calls it received, per tool. */
export const RECEIVED_URI = 'soak://received';

export interface Shop {
  /** Resolves to whether the call failed, and its text when it did. */
  callTool(
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ isError: boolean; text: string }>;
  /** Calls that reached the server's handlers, per tool. */
  received(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/**
 * Starts shop-server.js as a stdio child and connects a real SDK client to it;
 * `instrument` runs before the connection is made, as a user's
 * `inst.instrumentMcpClient(client)` would.
 */
export async function connectShop(instrument: (client: Client) => void): Promise<Shop> {
  const client = new Client({ name: 'argcheck-soak', version: '1.0.0' });
  instrument(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL('./shop-server.js', import.meta.url))],
      stderr: 'inherit',
    }),
  );
  return {
    async callTool(tool, args) {
      try {
        const result = await client.callTool({ name: tool, arguments: args });
        const content = Array.isArray(result.content)
          ? (result.content as { text?: string }[])
          : [];
        return {
          isError: result.isError === true,
          text: content.map((c) => c.text ?? '').join('\n'),
        };
      } catch (error) {
        return { isError: true, text: (error as Error).message };
      }
    },
    async received() {
      const { contents } = await client.readResource({ uri: RECEIVED_URI });
      const first = contents[0];
      return first && 'text' in first ? (JSON.parse(first.text) as Record<string, number>) : {};
    },
    close: () => client.close(),
  };
}
