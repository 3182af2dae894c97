import { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import type { McpHost } from '../../../src/internal-types.js';
import { mcpModuleDefinitions } from '../../../src/mcp/index.js';

/**
 * The smallest real `InstrumentationBase` around the MCP module definitions,
 * so auto-patching is proven through OpenTelemetry's own hooks before (and
 * independently of) the package's full instrumentation class.
 */
export class McpOnlyInstrumentation extends InstrumentationBase {
  /** `init()` runs inside `super()`, before any field of ours could be set. */
  private static nextHost: McpHost | undefined;

  constructor(host: McpHost) {
    McpOnlyInstrumentation.nextHost = host;
    super('argcheck-mcp-test', '0.0.0', {});
  }

  protected override init(): InstrumentationModuleDefinition[] {
    const host = McpOnlyInstrumentation.nextHost;
    if (host === undefined) throw new Error('McpOnlyInstrumentation: no host');
    return mcpModuleDefinitions(host);
  }
}
