// The complete public surface of @argcheck/instrumentation (with `argcheckViews`
// from `@argcheck/instrumentation/views`). Anything not exported here is internal.
export { ToolArgumentInstrumentation } from './instrumentation.js';
export type {
  AgentsGuardrailOutput,
  AgentsToolInputGuardrail,
  AttributionOptions,
  CallAttribution,
  FrameworkOptions,
  MastraToolCallAnswer,
  MastraToolCallContext,
  MastraToolHooks,
  McpOptions,
  RedactValue,
  ToolArgumentInstrumentationConfig,
  ValueLocation,
} from './types.js';
