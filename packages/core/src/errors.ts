/** Stable codes for configuration mistakes, thrown at construction time only. */
export const ErrorCode = {
  /** `checkedArguments` names a set that no source provides. */
  UNKNOWN_SET: 'ARGCHECK_UNKNOWN_SET',
  /** An argument path does not parse. */
  INVALID_PATH: 'ARGCHECK_INVALID_PATH',
  /** An option has the wrong type or is out of range. */
  INVALID_OPTION: 'ARGCHECK_INVALID_OPTION',
  /** A value-set source is misconfigured (bad URL, bad static values). */
  INVALID_SOURCE: 'ARGCHECK_INVALID_SOURCE',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A configuration mistake. `code` is stable; the message says what to change. */
export class ArgcheckConfigError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ArgcheckConfigError';
    this.code = code;
  }
}
