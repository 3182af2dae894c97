/** What went to the OpenTelemetry global diagnostics logger, for assertions on argcheck's warnings. */
import { diag, DiagLogLevel } from '@opentelemetry/api';
import type { DiagLogger } from '@opentelemetry/api';

/** What went to the global diagnostics logger, from `level` up. */
export interface CapturedDiag {
  readonly messages: { level: string; message: string }[];
  restore(): void;
}

export function captureDiag(level: DiagLogLevel = DiagLogLevel.DEBUG): CapturedDiag {
  const messages: CapturedDiag['messages'] = [];
  const at =
    (name: string) =>
    (...args: unknown[]) => {
      messages.push({ level: name, message: args.map(String).join(' ') });
    };
  const logger: DiagLogger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    verbose: at('verbose'),
  };
  diag.setLogger(logger, { logLevel: level, suppressOverrideMessage: true });
  return { messages, restore: () => diag.disable() };
}
