import { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import type { Shimmer } from '../../src/wrapping.js';

/** The `_wrap` / `_unwrap` every `InstrumentationBase` has, reached from a bare subclass. */
class Bare extends InstrumentationBase {
  constructor() {
    super('argcheck-test-shimmer', '0.0.0', { enabled: false });
  }
  protected override init(): InstrumentationModuleDefinition[] {
    return [];
  }
  shimmer(): Shimmer {
    return {
      wrap: this._wrap,
      unwrap: this._unwrap,
    };
  }
}

export function shimmer(): Shimmer {
  return new Bare().shimmer();
}
