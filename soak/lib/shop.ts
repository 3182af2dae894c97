import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stdioShop } from '@argcheck/testing/shop';

export interface Shop {
  /** Resolves to whether the call failed, and its text when it did. */
  callTool(
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ isError: boolean; text: string }>;
  /** Calls that reached the server, per tool. */
  received(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/**
 * Starts the shop server (`@argcheck/testing/shop`, its tools open: it plays
 * the services the agent acts on, counts what reaches it and answers ok; the
 * check runs in the client) as a stdio child and connects a real SDK client
 * to it; `instrument` runs before the connection is made, as a user's
 * `inst.instrumentMcpClient(client)` would.
 */
export async function connectShop(instrument: (client: Client) => void): Promise<Shop> {
  const client = new Client({ name: 'argcheck-soak', version: '1.0.0' });
  instrument(client);
  const shop = stdioShop('v1', { open: true });
  await client.connect(
    new StdioClientTransport({
      command: shop.command,
      args: shop.args,
      env: shop.env,
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
    received() {
      const counts: Record<string, number> = {};
      for (const { name } of shop.received()) counts[name] = (counts[name] ?? 0) + 1;
      return Promise.resolve(counts);
    },
    async close() {
      await client.close();
      shop.remove();
    },
  };
}
