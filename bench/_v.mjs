import { registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  InMemoryLogRecordExporter,
} from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet, createValueSetProvider, createArgumentChecker } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
const CODES = ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE', 'WRONG_ITEM', 'OTHER'];
const meterProvider = new MeterProvider({ readers: [] });
const loggerProvider = new LoggerProvider({
  processors: [
    new BatchLogRecordProcessor({ exporter: new InMemoryLogRecordExporter(), maxQueueSize: 4096 }),
  ],
});
const inst = new ToolArgumentInstrumentation({
  valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
  checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
  mcp: { enabled: false },
});
registerInstrumentations({ instrumentations: [inst], meterProvider, loggerProvider });
await inst.ready();
const provider = createValueSetProvider({ sources: { s: staticValueSet(CODES) } });
await provider.ready();
const checker = createArgumentChecker({
  valueSets: provider,
  checkedArguments: { refund_order: { reason_code: 's' } },
});
const set = provider.get('s').set;
const jsSet = new Set(CODES);
const inSet = CODES.map((reason_code, i) => ({ order_id: `o-${i}`, reason_code }));
const variant = process.argv[3];
const N = Number(process.argv[2]);
const ops = {
  loop: (i) => inSet[i % 6].reason_code.length,
  jsset: (i) => (jsSet.has(inSet[i % 6].reason_code) ? 1 : 0),
  has: (i) => (set.has(inSet[i % 6].reason_code) ? 1 : 0),
  gethas: (i) => (provider.get('s').set.has(inSet[i % 6].reason_code) ? 1 : 0),
  core: (i) => checker.check('refund_order', inSet[i % 6]).findings.length,
  inst: (i) => inst.check('refund_order', inSet[i % 6]).findings.length,
};
const op = ops[variant];
function loop(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += op(i);
  return s;
}
loop(200000);
loop(N);
process.exit(0);
