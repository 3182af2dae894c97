import type { ValueSetEntry } from '../../src/types.js';

/** The refund reason codes of the reference chapter, as their owner serves them. */
export const REFUND_CODES: readonly ValueSetEntry[] = [
  { value: 'DAMAGED' },
  { value: 'LATE' },
  { value: 'NOT_AS_DESCRIBED' },
  { value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] },
  { value: 'WRONG_ITEM' },
  { value: 'OTHER' },
];
