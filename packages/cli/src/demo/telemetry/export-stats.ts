/** How the OTLP exports went, so the demo can say whether anything arrived. */
export interface ExportStats {
  succeeded: number;
  failed: number;
  lastError?: string;
}

interface Exporter<T> {
  export(items: T, done: (result: { code: number; error?: Error }) => void): void;
}

/** `ExportResultCode.SUCCESS` of @opentelemetry/core, which this package does not depend on. */
const SUCCESS = 0;

/**
 * Counts the outcome of every export of `exporter` into `stats`. Exporters
 * report failures only to the global error handler, which a demo that draws
 * on the terminal cannot let print.
 */
export function watchExports<T, E extends Exporter<T>>(exporter: E, stats: ExportStats): E {
  const send = exporter.export.bind(exporter);
  exporter.export = (items, done) =>
    send(items, (result) => {
      if (result.code === SUCCESS) stats.succeeded += 1;
      else {
        stats.failed += 1;
        stats.lastError = result.error?.message ?? 'unknown error';
      }
      done(result);
    });
  return exporter;
}
