import type { UnavailableReason, ValueSetLookup } from '../types.js';

/**
 * One frozen lookup per reason, shared by every set: `get()` returns these
 * instead of building a result per call, and freezing keeps a caller that
 * mutates its result from changing what everyone else sees.
 */
export const UNAVAILABLE: Readonly<Record<UnavailableReason, ValueSetLookup>> = Object.freeze({
  cold: unavailable('cold'),
  fetch_failed: unavailable('fetch_failed'),
  timeout: unavailable('timeout'),
  invalid_payload: unavailable('invalid_payload'),
  expired: unavailable('expired'),
  unknown_set: unavailable('unknown_set'),
});

function unavailable(reason: UnavailableReason): ValueSetLookup {
  return Object.freeze({ state: 'unavailable', reason });
}
