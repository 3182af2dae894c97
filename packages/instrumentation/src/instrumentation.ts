import { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import type { MeterProvider } from '@opentelemetry/api';
import type { CheckContext, CheckOutcome, ValueSetEvent, ValueSetProvider } from '@argcheck/core';
import { resolveConfig } from './config/resolve-config.js';
import { createMcpHost } from './engine/mcp-host.js';
import { createRuntime } from './engine/runtime.js';
import type { Runtime } from './engine/runtime.js';
import { createSeriesRegistry } from './engine/series-registry.js';
import type { SeriesRegistry } from './engine/series-registry.js';
import type { McpHost } from './internal-types.js';
import { instrumentClient, mcpModuleDefinitions } from './mcp/index.js';
import { createMetrics } from './telemetry/metrics.js';
import type { Metrics } from './telemetry/metrics.js';
import type { ToolArgumentInstrumentationConfig } from './types.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';

type LoggerProvider = Parameters<InstrumentationBase['setLoggerProvider']>[0];

/**
 * Checks tool-call arguments against live value sets and records
 * cardinality-safe counters and sampled log records.
 *
 * Register it like any OpenTelemetry instrumentation; call `check` from a
 * dispatcher you own, or let it patch MCP clients.
 */
export class ToolArgumentInstrumentation extends InstrumentationBase<ToolArgumentInstrumentationConfig> {
  // `declare`: InstrumentationBase calls init(), setConfig() and
  // _updateMetricInstruments() from its constructor; initialised fields would
  // be reset after it returns.
  declare private registry: SeriesRegistry | undefined;
  declare private runtime: Runtime | undefined;
  declare private metrics: Metrics | undefined;
  declare private host: McpHost | undefined;
  declare private budgetReported: boolean | undefined;

  /** @throws ArgcheckConfigError for a configuration mistake (stable `code`). */
  constructor(config: ToolArgumentInstrumentationConfig = {}) {
    super(PACKAGE_NAME, PACKAGE_VERSION, config);
    this.runtime = this.buildRuntime(this.getConfig());
    this._updateMetricInstruments();
  }

  /** Check one call's arguments and record its telemetry. Synchronous; never throws. */
  check(tool: string, args: unknown, ctx?: CheckContext): CheckOutcome {
    return this.current().configured.check(tool, args, ctx);
  }

  /** Fetch every configured value set; settles when each has had its first fetch. Never rejects. */
  ready(): Promise<void> {
    return this.current().provider.ready();
  }

  /** The provider over the configured value sets (`status()`, `refresh(name)`). */
  get valueSets(): ValueSetProvider {
    return this.current().provider;
  }

  /**
   * Check the calls of an MCP client that auto-patching cannot reach (ESM
   * without loader hooks). A client patched both ways counts each call once.
   */
  instrumentMcpClient(client: object): void {
    instrumentClient(client, this.mcpHost());
  }

  /** Stop background refreshes and fetches in flight. */
  close(): void {
    this.runtime?.close();
  }

  override setConfig(config: ToolArgumentInstrumentationConfig = {}): void {
    // Before the constructor has run its course there is nothing to rebuild.
    if (this.runtime === undefined) {
      super.setConfig(config);
      return;
    }
    const next = this.buildRuntime(config);
    super.setConfig(config);
    const previous = this.runtime;
    this.runtime = next;
    previous.close();
  }

  override setMeterProvider(meterProvider: MeterProvider): void {
    try {
      super.setMeterProvider(meterProvider);
    } catch (error) {
      this._diag.warn('the meter provider failed; argcheck metrics are off', error);
    }
  }

  override setLoggerProvider(loggerProvider: LoggerProvider): void {
    try {
      super.setLoggerProvider(loggerProvider);
    } catch (error) {
      this._diag.warn('the logger provider failed; argcheck log records are off', error);
    }
  }

  protected override init(): InstrumentationModuleDefinition[] {
    // Runs inside super(): only the config set by the base constructor exists yet.
    const enabled = this.getConfig().mcp?.enabled ?? true;
    return enabled ? mcpModuleDefinitions(this.mcpHost()) : [];
  }

  protected override _updateMetricInstruments(): void {
    if (this.runtime === undefined) return;
    this.metrics?.dispose();
    this.metrics = undefined;
    try {
      this.metrics = createMetrics(
        this.meter,
        { registry: this.series(), statuses: () => this.current().statuses() },
        this._diag,
      );
    } catch (error) {
      this._diag.warn('creating argcheck instruments failed; metrics are off', error);
    }
  }

  /** What the MCP integration uses. Safe to create during `super()`: it reads the runtime lazily. */
  private mcpHost(): McpHost {
    this.host ??= createMcpHost(() => this.current(), this._diag);
    return this.host;
  }

  private buildRuntime(config: ToolArgumentInstrumentationConfig): Runtime {
    const resolved = resolveConfig(config);
    return createRuntime(resolved, {
      registry: this.series(),
      logger: () => this.logger,
      diag: this._diag,
      onEvent: (event: ValueSetEvent) => this.metrics?.fetched(event),
      onBudgetSpent: (unchecked) => {
        if (this.budgetReported) return;
        this.budgetReported = true;
        this._diag.warn(
          `mcp.maxCheckedArguments (${resolved.mcp.maxCheckedArguments}) reached: ` +
            `${unchecked} argument(s) derived from tool catalogs are not checked, ` +
            'and further ones will not be either. Name the arguments that matter in ' +
            'checkedArguments, or raise mcp.maxCheckedArguments.',
        );
      },
    });
  }

  private series(): SeriesRegistry {
    this.registry ??= createSeriesRegistry();
    return this.registry;
  }

  private current(): Runtime {
    return this.runtime as Runtime;
  }
}
