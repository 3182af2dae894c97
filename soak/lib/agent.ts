// The soak's load: tool calls as a model writes them, seeded. Most arguments
// are members; a few per hundred are not, in every mismatch shape a check
// reports except `not_string` (the MCP server's own schema would refuse a
// number where it says string: a failed call argcheck had no part in).
import type { MismatchShape } from '@argcheck/core';
import { pick, seededRandom, type Random } from '../../bench/lib/ids.js';
import { REASON_CODES, WAREHOUSES, type ToolName } from './data.js';

export interface PlannedCall {
  tool: ToolName;
  args: Record<string, unknown>;
  /** Argument values the call holds that a check looks at. */
  checkedValues: number;
}

const SHAPES = [
  'case',
  'format',
  'alias',
  'near_miss',
  'invented',
] as const satisfies readonly MismatchShape[];
/** Out-of-set share per argument: reason codes go wrong most (the reference reading's 3.4 %). */
const OUT_OF_SET = {
  reason_code: 0.034,
  component_id: 0.03,
  assignee: 0.02,
  warehouse_code: 0.015,
};
const TOOL_WEIGHTS: readonly [ToolName, number][] = [
  ['refund_order', 0.45],
  ['create_ticket', 0.35],
  ['transfer_stock', 0.2],
];
const INVENTED = ['CUSTOMER_UNHAPPY', 'legacy-monolith', 'support-oncall', 'EU-CENTRAL', 'MAIN'];
const SUMMARIES = ['Checkout times out', 'Refund webhook retries', 'Stock count off'];

/** `meant`, written the way a model gets it wrong in `shape`. */
function miswrite(
  random: Random,
  shape: (typeof SHAPES)[number],
  meant: string,
  aliases: readonly string[],
): string {
  switch (shape) {
    case 'case':
      return meant === meant.toLowerCase() ? meant.toUpperCase() : meant.toLowerCase();
    case 'format':
      return /[_\-.]/.test(meant) ? meant.replace(/[_\-.]/g, ' ') : ` ${meant} `;
    case 'alias':
      return aliases.length > 0 ? pick(random, aliases).toLowerCase() : pick(random, INVENTED);
    case 'near_miss': {
      const at = 1 + Math.floor(random() * Math.max(1, meant.length - 2));
      return meant.slice(0, at) + meant.slice(at + 1);
    }
    case 'invented':
      return pick(random, INVENTED);
  }
}

export interface Agent {
  next(): PlannedCall;
}

export function createAgent(
  seed: number,
  data: { components: readonly string[]; handles: readonly string[] },
): Agent {
  const random = seededRandom(seed);
  let orders = 100_000;
  const emit = (rate: number, meant: string, aliases: readonly string[] = []): string =>
    random() < rate ? miswrite(random, pick(random, SHAPES), meant, aliases) : meant;
  const tool = (): ToolName => {
    let r = random();
    for (const [name, weight] of TOOL_WEIGHTS) if ((r -= weight) < 0) return name;
    return 'refund_order';
  };
  return {
    next() {
      const name = tool();
      if (name === 'refund_order') {
        orders += 1 + Math.floor(random() * 9);
        const code = pick(random, REASON_CODES);
        const reason_code = emit(OUT_OF_SET.reason_code, code.value, code.aliases);
        return { tool: name, args: { order_id: `ORD-${orders}`, reason_code }, checkedValues: 1 };
      }
      if (name === 'create_ticket') {
        const args = {
          summary: pick(random, SUMMARIES),
          component_id: emit(OUT_OF_SET.component_id, pick(random, data.components)),
          assignee: emit(OUT_OF_SET.assignee, pick(random, data.handles)),
        };
        return { tool: name, args, checkedValues: 2 };
      }
      const items = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
        sku: `SKU-${10_000 + Math.floor(random() * 90_000)}`,
        warehouse_code: emit(OUT_OF_SET.warehouse_code, pick(random, WAREHOUSES)),
        qty: 1 + Math.floor(random() * 40),
      }));
      return { tool: name, args: { items }, checkedValues: items.length };
    },
  };
}
