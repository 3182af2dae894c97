import type { RefreshRejection } from '../types.js';

/** Why a payload was refused while it was read, as `refresh_rejected` reports it. */
export type PayloadRejection = Extract<RefreshRejection, 'malformed' | 'too_large'>;

/**
 * A source reached its owner but what came back cannot be a value set. The
 * provider recognises it by `reason` rather than by class, so an error from a
 * second copy of this package (ESM and CommonJS loaded side by side), or from a
 * hand-written source, is classified the same way.
 */
export class ValueSetPayloadError extends Error {
  readonly reason = 'invalid_payload';
  readonly rejection: PayloadRejection;
  /** What exactly was wrong, for humans. */
  readonly detail: string;

  constructor(rejection: PayloadRejection, detail: string) {
    super(detail);
    this.name = 'ValueSetPayloadError';
    this.rejection = rejection;
    this.detail = detail;
  }
}

/** The parts of a payload error the provider reads, from any object that carries them. */
export function asPayloadError(
  error: unknown,
): { rejection: PayloadRejection; detail: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { reason, rejection, detail, message } = error as Record<string, unknown>;
  if (reason !== 'invalid_payload') return undefined;
  return {
    rejection: rejection === 'too_large' ? 'too_large' : 'malformed',
    detail:
      typeof detail === 'string'
        ? detail
        : typeof message === 'string'
          ? message
          : 'invalid payload',
  };
}
