/**
 * "Counted once" across layers. A framework's integration checks a tool call
 * and runs the tool marked with what it checked: this instrumentation, the
 * tool's name and the arguments it was run with. A call seen again inside
 * that run is exempt only when it is the *same* call — the same tool (as
 * `ToolNames.same` decides) with the same arguments (`sameArguments`), seen by
 * the same instrumentation:
 *
 * - an MCP `tools/call` made by a framework tool backed by that MCP tool
 *   takes the mark, once: a second such call in the run is checked and
 *   counted on its own;
 * - a second layer of the same framework call (Mastra's `beforeToolCall`
 *   inside a patched agent's tool) is covered without taking it, so the MCP
 *   call further in is still exempt.
 *
 * Any other call made inside a tool (another tool, other arguments, a
 * "call any MCP tool" proxy) is a call of its own. Marks nest (an agent used
 * as a tool): the innermost matching mark answers.
 *
 * One `AsyncLocalStorage` for the process, created on the first marked run,
 * so MCP-only and dispatcher-only applications never pay for one; marks carry
 * their owner, so several instrumentations never exempt each other's calls.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sameArguments } from './same-arguments.js';

interface Mark {
  readonly owner: object;
  readonly tool: string;
  readonly args: unknown;
  taken: boolean;
  readonly parent: Mark | undefined;
}

let storage: AsyncLocalStorage<Mark> | undefined;

/** Run `run` (the tool of a call `owner` checked, with `args`) marked as checked. */
export function runMarked<T>(owner: object, tool: string, args: unknown, run: () => T): T {
  storage ??= new AsyncLocalStorage<Mark>();
  return storage.run({ owner, tool, args, taken: false, parent: storage.getStore() }, run);
}

/** Whether any instrumentation's marked run is active now: only then can a call be exempt. */
export function marked(): boolean {
  return storage !== undefined && storage.getStore() !== undefined;
}

/** How a mark's tool is compared with a call's. */
export type SameTool = (outer: string, inner: string) => boolean;

function find(
  owner: object,
  tool: string,
  args: unknown,
  same: SameTool,
  untaken: boolean,
): Mark | undefined {
  if (storage === undefined) return undefined;
  for (let mark = storage.getStore(); mark !== undefined; mark = mark.parent) {
    if (mark.owner !== owner || (untaken && mark.taken)) continue;
    if (same(mark.tool, tool) && sameArguments(mark.args, args)) return mark;
  }
  return undefined;
}

/** Inside a marked run of the same call: a further layer of it, already checked and counted. */
export function coveredBy(owner: object, tool: string, args: unknown, same: SameTool): boolean {
  return find(owner, tool, args, same, false) !== undefined;
}

/** The MCP call of a marked run of the same call, once: already checked and counted. */
export function takeMark(owner: object, tool: string, args: unknown, same: SameTool): boolean {
  const mark = find(owner, tool, args, same, true);
  if (mark === undefined) return false;
  mark.taken = true;
  return true;
}
