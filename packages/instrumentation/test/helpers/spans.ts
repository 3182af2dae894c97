import { context, trace } from '@opentelemetry/api';
import type { Attributes, Tracer } from '@opentelemetry/api';
import { StackContextManager } from '../mcp/helpers/stack-context-manager.js';

interface FinishedSpan {
  name: string;
  attributes: Attributes;
  events: { name: string; attributes?: Attributes }[];
}
interface TraceSdk {
  Provider: new (options: { spanProcessors: unknown[] }) => {
    getTracer(name: string): Tracer;
    shutdown(): Promise<void>;
  };
  InMemorySpanExporter: new () => { getFinishedSpans(): FinishedSpan[] };
  SimpleSpanProcessor: new (exporter: unknown) => unknown;
}

/**
 * The SDK's tracer provider, in-memory exporter and simple processor. They
 * moved between the two OpenTelemetry JS lines (`sdk-trace-base`'s
 * `BasicTracerProvider` on 2.x, `sdk-trace`'s `TracerProvider` on 3.x), both
 * installed with `@opentelemetry/sdk-node`; named through variables so the
 * compiler does not need the line it is not on.
 */
async function traceSdk(): Promise<TraceSdk> {
  const base: string = '@opentelemetry/sdk-trace-base';
  const next: string = '@opentelemetry/sdk-trace';
  try {
    const m = (await import(base)) as Record<string, unknown>;
    return {
      ...(m as unknown as TraceSdk),
      Provider: m.BasicTracerProvider as TraceSdk['Provider'],
    };
  } catch {
    const m = (await import(next)) as Record<string, unknown>;
    return { ...(m as unknown as TraceSdk), Provider: m.TracerProvider as TraceSdk['Provider'] };
  }
}

/** What a test asserts of a finished span: its name, attributes and events (name and attributes). */
export interface SpanView {
  name: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
}

export interface Spans {
  readonly tracer: Tracer;
  finished(): SpanView[];
  close(): Promise<void>;
}

/**
 * The real SDK's tracer provider with an in-memory exporter, registered
 * globally with a synchronous context manager (a span is active for the
 * synchronous part of its callback, which is where the checks under test run).
 */
export async function spans(): Promise<Spans> {
  const sdk = await traceSdk();
  const exporter = new sdk.InMemorySpanExporter();
  const provider = new sdk.Provider({ spanProcessors: [new sdk.SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new StackContextManager());
  trace.setGlobalTracerProvider(provider);
  return {
    tracer: provider.getTracer('argcheck-test'),
    finished: () =>
      exporter.getFinishedSpans().map((s) => ({
        name: s.name,
        attributes: { ...s.attributes },
        events: s.events.map((e) => ({ name: e.name, attributes: { ...e.attributes } })),
      })),
    async close() {
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}
