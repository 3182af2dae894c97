import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ToolReply } from './run-scenario.js';
import { RECEIVED_URI, type ToolName } from './tools.js';
import type { ListingName } from './traffic.js';

/** The demo's MCP server script, next to this file in the build. */
export const MCP_SERVER_SCRIPT = fileURLToPath(new URL('./mcp-server.js', import.meta.url));

export interface McpConnection {
  readonly client: Client;
  callTool(tool: ToolName, args: Record<string, unknown>): Promise<ToolReply>;
  /** Calls that reached the server's handlers, per tool. */
  received(): Promise<Record<string, number>>;
  /** The tail of the child's stderr, for error messages. */
  stderrTail(): string;
  /** Closes the client and ends the child process. */
  close(): Promise<void>;
}

/**
 * Starts the MCP server, serving `listing`, as a stdio child process and
 * connects a real SDK client to it. `instrument` runs before the connection is made, as a user's
 * `inst.instrumentMcpClient(client)` would.
 */
export async function connectMcpServer(
  instrument: (client: Client) => void,
  listing: ListingName = 'original',
): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_SERVER_SCRIPT, listing],
    stderr: 'pipe',
  });
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4_096);
  });
  const client = new Client({ name: 'argcheck-demo-agent', version: '1.0.0' });
  instrument(client);
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close();
    throw new Error(`the MCP server child did not start: ${(error as Error).message}\n${tail}`, {
      cause: error,
    });
  }

  return {
    client,
    async callTool(tool, args) {
      try {
        const result = await client.callTool({ name: tool, arguments: args });
        const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
        const text = content
          .map((part) => part as { type?: string; text?: string })
          .filter((part) => part.type === 'text')
          .map((part) => part.text ?? '')
          .join('\n');
        return { isError: result.isError === true, text };
      } catch (error) {
        // A protocol error (the server refused the request) reaches the agent as a failed call.
        return { isError: true, text: (error as Error).message };
      }
    },
    async received() {
      const { contents } = await client.readResource({ uri: RECEIVED_URI });
      const first = contents[0];
      return first && 'text' in first ? (JSON.parse(first.text) as Record<string, number>) : {};
    },
    stderrTail: () => tail,
    close: () => client.close(),
  };
}
