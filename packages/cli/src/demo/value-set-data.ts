import type { ValueSetEntry } from '@argcheck/core';
import { mulberry32, shuffled } from './prng.js';

/** The four sets of the story, by the names the owners publish them under. */
export const SET_REASON_CODES = 'refunds.reason_codes';
export const SET_COMPONENTS = 'catalog.components';
export const SET_HANDLES = 'identity.active_handles';
export const SET_WAREHOUSES = 'wms.warehouses';

/** The refunds owner's six codes, with the labels its UI shows (the `alias` shape). */
export const REASON_CODES: readonly ValueSetEntry[] = [
  { value: 'DAMAGED', aliases: ['Broken on arrival'] },
  { value: 'LATE', aliases: ['Arrived late'] },
  { value: 'NOT_AS_DESCRIBED' },
  { value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] },
  { value: 'WRONG_ITEM', aliases: ['Wrong item sent'] },
  { value: 'OTHER' },
];

/** The codes that have a label, the only ones a model can write as an `alias`. */
export const LABELLED_REASON_CODES: readonly string[] = REASON_CODES.filter(
  (entry) => (entry.aliases ?? []).length > 0,
).map((entry) => entry.value);

/** The code the refunds owner adds mid-run. */
export const SEVENTH_REASON_CODE: ValueSetEntry = {
  value: 'MISSING_PARTS',
  aliases: ['Parts missing'],
};

// prettier-ignore
export const WAREHOUSES: readonly string[] = [
  'AMS1', 'AMS2', 'ARN1', 'CDG1', 'DUB1', 'FRA1', 'FRA2', 'LHR1', 'LHR2', 'MAD1', 'MXP1', 'WAW1',
];

// prettier-ignore
const DOMAINS = [
  'payments', 'checkout', 'search', 'catalog', 'identity', 'shipping', 'returns', 'inventory',
  'pricing', 'notifications', 'analytics', 'billing', 'loyalty', 'reviews', 'support', 'fraud',
  'ledger', 'tax', 'promotions', 'recommendations', 'media', 'auth', 'orders', 'warehouse',
  'partners', 'reporting', 'onboarding', 'subscriptions', 'messaging', 'storefront',
];
// prettier-ignore
const PARTS = [
  'core', 'gateway', 'scheduler', 'indexer', 'importer', 'exporter', 'reconciler', 'router',
  'cache', 'store', 'events', 'webhooks', 'settlement', 'quotes', 'rules', 'sync', 'audit',
  'feeds', 'matcher', 'planner', 'tracker', 'ranker', 'renderer', 'validator', 'dispatcher',
];
const KINDS = ['api', 'worker', 'web', 'job', 'db', 'stream'];

/** Component ids as a catalog would list them (`payments-ledger-api`): 3,000 of the 4,500 combinations. */
export function componentIds(seed: number): string[] {
  const all: string[] = [];
  for (const domain of DOMAINS) {
    for (const part of PARTS) for (const kind of KINDS) all.push(`${domain}-${part}-${kind}`);
  }
  return shuffled(mulberry32(seed ^ 0xc0ffee), all)
    .slice(0, 3_000)
    .sort();
}

// prettier-ignore
const FIRST = [
  'amira', 'bruno', 'chen', 'dalia', 'emeka', 'fatima', 'goran', 'hana', 'ivan', 'jonas', 'kemal',
  'lena', 'mateo', 'nadia', 'omar', 'priya', 'quentin', 'rosa', 'sven', 'tariq', 'uma', 'vera',
  'wei', 'ximena', 'yusuf', 'zofia',
];
// prettier-ignore
const LAST = [
  'okafor', 'silva', 'nakamura', 'haddad', 'kowalski', 'mensah', 'petrov', 'garcia', 'lindqvist',
  'tanaka', 'osei', 'novak', 'fischer', 'moreau', 'rossi', 'dubois', 'ahmed', 'jensen', 'costa',
  'yilmaz',
];

/** Active handles (`amira.okafor`): 300 of the 520 name pairs. */
export function activeHandles(seed: number): string[] {
  const all = FIRST.flatMap((first) => LAST.map((last) => `${first}.${last}`));
  return shuffled(mulberry32(seed ^ 0xbadcafe), all)
    .slice(0, 300)
    .sort();
}
