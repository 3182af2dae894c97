import type { CheckedArguments } from '@argcheck/core';
import { SET_COMPONENTS, SET_HANDLES, SET_REASON_CODES, SET_WAREHOUSES } from './value-set-data.js';

/** The demo's tools, as the MCP server names them. */
export const TOOLS = ['refund_order', 'create_ticket', 'transfer_stock'] as const;
export type ToolName = (typeof TOOLS)[number];

/** Which arguments are checked against which set: the configuration a user would write. */
export const CHECKED_ARGUMENTS = {
  refund_order: { reason_code: SET_REASON_CODES },
  create_ticket: { component_id: SET_COMPONENTS, assignee: SET_HANDLES },
  transfer_stock: { 'items[].warehouse_code': SET_WAREHOUSES },
} as const satisfies CheckedArguments;

/** Every checked tool argument, in table order. */
export const CHECKED: readonly { tool: ToolName; argument: string; set: string }[] = TOOLS.flatMap(
  (tool) =>
    Object.entries(CHECKED_ARGUMENTS[tool]).map(([argument, set]) => ({ tool, argument, set })),
);

/** The MCP server's resource that reports the calls it received, per tool. */
export const RECEIVED_URI = 'demo://received';
