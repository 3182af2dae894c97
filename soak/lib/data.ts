// The soak's value sets, as four owners would publish them, and the
// configuration that checks tool arguments against them.
import type { CheckedArguments, ValueSetEntry } from '@argcheck/core';
import { pick, seededRandom } from '../../bench/lib/ids.js';

export const SET_REASON_CODES = 'refunds.reason_codes';
export const SET_COMPONENTS = 'catalog.components';
export const SET_HANDLES = 'identity.active_handles';
export const SET_WAREHOUSES = 'wms.warehouses';
export const SETS = [SET_REASON_CODES, SET_COMPONENTS, SET_HANDLES, SET_WAREHOUSES] as const;

export const TOOLS = ['refund_order', 'create_ticket', 'transfer_stock'] as const;
export type ToolName = (typeof TOOLS)[number];

/** Which arguments are checked against which set: the configuration a user would write. */
export const CHECKED_ARGUMENTS = {
  refund_order: { reason_code: SET_REASON_CODES },
  create_ticket: { component_id: SET_COMPONENTS, assignee: SET_HANDLES },
  transfer_stock: { 'items[].warehouse_code': SET_WAREHOUSES },
} as const satisfies CheckedArguments;

/** The refunds owner's six codes, with the labels its UI shows (the `alias` shape). */
export const REASON_CODES: readonly ValueSetEntry[] = [
  { value: 'DAMAGED', aliases: ['Broken on arrival'] },
  { value: 'LATE', aliases: ['Arrived late'] },
  { value: 'NOT_AS_DESCRIBED' },
  { value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] },
  { value: 'WRONG_ITEM', aliases: ['Wrong item sent'] },
  { value: 'OTHER' },
];

// prettier-ignore
export const WAREHOUSES: readonly string[] = [
  'AMS1', 'AMS2', 'ARN1', 'CDG1', 'DUB1', 'FRA1', 'FRA2', 'LHR1', 'LHR2', 'MAD1', 'MXP1', 'WAW1',
];

// prettier-ignore
const DOMAINS = ['payments', 'checkout', 'search', 'catalog', 'identity', 'shipping', 'returns',
  'inventory', 'pricing', 'billing', 'loyalty', 'fraud', 'ledger', 'orders', 'media', 'tax'];
// prettier-ignore
const PARTS = ['core', 'gateway', 'scheduler', 'indexer', 'importer', 'router', 'cache', 'store',
  'events', 'webhooks', 'settlement', 'quotes', 'rules', 'sync', 'audit', 'feeds', 'ranker'];
const KINDS = ['api', 'worker', 'web', 'job', 'db', 'stream'];
// prettier-ignore
const FIRST = ['amira', 'bruno', 'chen', 'dalia', 'emeka', 'fatima', 'goran', 'hana', 'ivan',
  'jonas', 'kemal', 'lena', 'mateo', 'nadia', 'omar', 'priya', 'rosa', 'sven', 'tariq', 'vera'];
// prettier-ignore
const LAST = ['okafor', 'silva', 'nakamura', 'haddad', 'kowalski', 'mensah', 'petrov', 'garcia',
  'lindqvist', 'tanaka', 'osei', 'novak', 'fischer', 'moreau', 'rossi', 'dubois', 'ahmed'];

/** `count` distinct values drawn by `make`. */
function distinct(count: number, make: () => string): string[] {
  const out = new Set<string>();
  while (out.size < count) out.add(make());
  return [...out].sort();
}

/** Component ids as a catalog lists them (`payments-ledger-api`): 1,200 of the 1,632 combinations. */
export function componentIds(seed: number): string[] {
  const random = seededRandom(seed ^ 0xc0ffee);
  const id = () => `${pick(random, DOMAINS)}-${pick(random, PARTS)}-${pick(random, KINDS)}`;
  return distinct(1_200, id);
}

/** Active handles (`amira.okafor`): 200 of the 340 name pairs. */
export function activeHandles(seed: number): string[] {
  const random = seededRandom(seed ^ 0xbadcafe);
  return distinct(200, () => `${pick(random, FIRST)}.${pick(random, LAST)}`);
}
