/**
 * A tool call an agent framework's integration has checked, carried through
 * the tool's execution, so that the MCP client call the tool makes (a
 * framework tool backed by an MCP server) is not checked and counted again.
 *
 * The outer layer owns the call: it is where the model's call enters, with
 * the framework's own tool name and schema. The first MCP `tools/call` made
 * inside that execution takes the mark and goes out unchecked; a further one
 * (a tool that calls the server twice) is checked on its own. A tool call
 * made inside by another framework invocation (an agent used as a tool) is a
 * call of its own, with a mark of its own.
 *
 * A framework can see one call at two of its own layers (Mastra's
 * `beforeToolCall` hook inside a patched agent's tool): the inner layer asks
 * `checkedHere(args)` whether the outer one already checked the very
 * arguments object it was handed.
 *
 * The mark lives in an `AsyncLocalStorage` created on the first framework
 * call, so MCP-only and dispatcher-only applications never pay for one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Mark {
  taken: boolean;
  /** The arguments the checked call runs the tool with. */
  readonly args: unknown;
}

let marks: AsyncLocalStorage<Mark> | undefined;

/** Run `execute` (the checked call's tool, given `args`) with the call marked as checked. */
export function runChecked<T>(execute: () => T, args?: unknown): T {
  marks ??= new AsyncLocalStorage<Mark>();
  return marks.run({ taken: false, args }, execute);
}

/**
 * True inside a checked call's execution when `args` is the object that call
 * runs the tool with: a second layer of the same framework call. Does not
 * take the mark, so the MCP call the tool makes still goes out unchecked.
 */
export function checkedHere(args: unknown): boolean {
  if (marks === undefined || typeof args !== 'object' || args === null) return false;
  return marks.getStore()?.args === args;
}

/**
 * True, once, inside a checked call's execution: the MCP call the tool makes
 * is the framework's call, already checked and counted.
 */
export function takeChecked(): boolean {
  if (marks === undefined) return false;
  const mark = marks.getStore();
  if (mark === undefined || mark.taken) return false;
  mark.taken = true;
  return true;
}
