// The complete public surface of @argcheck/core. Anything not exported here is internal.
export { ArgcheckConfigError, ErrorCode } from './errors.js';
export { createValueSetProvider } from './provider/create-value-set-provider.js';
export { functionValueSet } from './sources/function-value-set.js';
export { httpValueSet } from './sources/http-value-set.js';
export { staticValueSet, toolSchemaValueSet } from './sources/static-value-set.js';
export type {
  ArgumentChecker,
  ArgumentCheckerOptions,
  CheckAction,
  CheckContext,
  CheckedArguments,
  CheckMode,
  CheckOutcome,
  Classification,
  Clock,
  FetchContext,
  FetchFailureReason,
  Finding,
  HttpValueSetOptions,
  LoadedValueSet,
  MismatchShape,
  RefreshRejection,
  RepairDisclosure,
  SourceKind,
  UnavailableReason,
  ValueSet,
  ValueSetEntry,
  ValueSetEvent,
  ValueSetLookup,
  ValueSetProvider,
  ValueSetProviderOptions,
  ValueSetSource,
  ValueSetStatus,
} from './types.js';
export { createArgumentChecker } from './checker/create-argument-checker.js';
export {
  CHECK_ACTIONS,
  CHECK_MODES,
  FETCH_FAILURE_REASONS,
  MISMATCH_SHAPES,
  REFRESH_REJECTIONS,
  REPAIR_DISCLOSURES,
  SOURCE_KINDS,
  UNAVAILABLE_REASONS,
} from './vocabulary.js';
