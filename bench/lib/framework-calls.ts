// What the agent-framework benchmarks share: the loader hook registered in
// the benchmark's own process (so the framework, imported afterwards, is
// patched the way an application's is), and one tool call timed with the
// instrumentation disabled (twice: plain and control) and enabled, in
// rotated rounds.
import { register } from 'node:module';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import type { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { median, nowNs, rotated } from './stats.js';
import { PullReader, sumOf } from './telemetry.js';

export const CODES = [
  'DAMAGED',
  'LATE',
  'NOT_AS_DESCRIBED',
  'DUPLICATE_CHARGE',
  'WRONG_ITEM',
  'OTHER',
];

/** Mostly in-set codes; one call in 20 a case variant or an invented code (as bench/call-tool.ts). */
export const ARGS = Array.from({ length: 40 }, (_, i) => ({
  order_id: `ORD-${1000 + i}`,
  reason_code: i === 13 ? 'late' : i === 33 ? 'CUSTOMER_UNHAPPY' : (CODES[i % CODES.length] ?? ''),
}));

export interface Registered {
  inst: ToolArgumentInstrumentation;
  checked(): Promise<number>;
  close(): Promise<void>;
}

/** The loader hook, then the instrumentation (observe mode): import the framework after this. */
export async function registerBeforeFramework(): Promise<Registered> {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  // Imported after the hook, as an application's --import file does: an
  // import-in-the-middle loaded before it does not see the modules it wraps.
  const { registerInstrumentations } = await import('@opentelemetry/instrumentation');
  const { ToolArgumentInstrumentation } = await import('@argcheck/instrumentation');
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const inst = new ToolArgumentInstrumentation({
    valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    mcp: { enabled: false },
  });
  registerInstrumentations({ instrumentations: [inst], meterProvider });
  await inst.ready();
  return {
    inst,
    async checked() {
      const { resourceMetrics } = await reader.collect();
      return sumOf(resourceMetrics, 'tool_argument_value_check');
    },
    async close() {
      inst.close();
      await meterProvider.shutdown();
    },
  };
}

const VARIANTS = ['plain', 'control', 'instrumented'] as const;
type Variant = (typeof VARIANTS)[number];

export interface Comparison {
  /** Median over rounds of µs per call, per variant. */
  medianUs: Record<Variant, number>;
  ratio: number;
  controlRatio: number;
  addedNs: number;
  /** Calls made with the instrumentation enabled. */
  instrumentedCalls: number;
}

/**
 * `batch(n, offset)` makes `n` tool calls; each round times one batch of
 * `calls` per variant, in rotated order, and records µs per call. The
 * instrumentation is enabled only for the instrumented variant's rounds
 * (`disable()` takes the patch off).
 */
export async function compareToggled(
  inst: ToolArgumentInstrumentation,
  batch: (n: number, offset: number) => Promise<unknown>,
  rounds: number,
  calls: number,
): Promise<Comparison> {
  const latencies: Record<Variant, number[]> = { plain: [], control: [], instrumented: [] };
  const time = async (variant: Variant, n: number, offset: number) => {
    if (variant === 'instrumented') inst.enable();
    else inst.disable();
    const t0 = nowNs();
    await batch(n, offset);
    latencies[variant].push((nowNs() - t0) / 1000 / n);
  };
  for (const v of VARIANTS) await time(v, calls * 5, 0); // warm up
  for (const v of VARIANTS) latencies[v].length = 0;
  for (let round = 0; round < rounds; round++) {
    for (const v of rotated(VARIANTS, round)) await time(v, calls, round * calls);
  }
  inst.enable();
  const m = {
    plain: median(latencies.plain),
    control: median(latencies.control),
    instrumented: median(latencies.instrumented),
  };
  return {
    medianUs: m,
    ratio: m.instrumented / m.plain,
    controlRatio: m.control / m.plain,
    addedNs: (m.instrumented - m.plain) * 1000,
    instrumentedCalls: (rounds + 5) * calls,
  };
}
