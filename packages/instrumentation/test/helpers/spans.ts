import { context, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import { StackContextManager } from '../mcp/helpers/stack-context-manager.js';

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
export function spans(): Spans {
  const exporter = new tracing.InMemorySpanExporter();
  const provider = new tracing.BasicTracerProvider({
    spanProcessors: [new tracing.SimpleSpanProcessor(exporter)],
  });
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
