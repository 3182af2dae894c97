import type { UnavailableReason, ValueSetLookup } from '../types.js';
import { UNAVAILABLE_REASONS } from '../vocabulary.js';

/**
 * One frozen lookup per reason, shared by every set: `get()` returns these
 * instead of building a result per call, and freezing keeps a caller that
 * mutates its result from changing what everyone else sees.
 */
export const UNAVAILABLE = Object.freeze(
  Object.fromEntries(UNAVAILABLE_REASONS.map((reason) => [reason, unavailable(reason)])),
) as Readonly<Record<UnavailableReason, ValueSetLookup>>;

function unavailable(reason: UnavailableReason): ValueSetLookup {
  return Object.freeze({ state: 'unavailable', reason });
}
