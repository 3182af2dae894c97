import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
const CODES = ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE', 'WRONG_ITEM', 'OTHER'];
const exporter = { export: (_r, cb) => cb({ code: 0 }), shutdown: () => Promise.resolve(), forceFlush: () => Promise.resolve() };
const inst = new ToolArgumentInstrumentation({ valueSets: { 'refunds.reason_codes': staticValueSet(CODES) }, checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } }, mcp: { enabled: false }, logSampleRatio: Number(process.argv[2] ?? 0.02) });
registerInstrumentations({ instrumentations: [inst], meterProvider: new MeterProvider({ readers: [] }), loggerProvider: new LoggerProvider({ processors: [new BatchLogRecordProcessor({ exporter, maxQueueSize: 4096 })] }) });
await inst.ready();
const inSet = CODES.map((reason_code, i) => ({ order_id: `o-${i}`, reason_code }));
function loop(n) { let s = 0; for (let i = 0; i < n; i++) s += inst.check('refund_order', inSet[i % 6]).findings.length; return s; }
for (let k = 0; k < 5; k++) loop(100000);
const r = [];
for (let k = 0; k < 40; k++) { const t = process.hrtime.bigint(); loop(10000); r.push(Number(process.hrtime.bigint() - t) / 10000); await new Promise((res) => setImmediate(res)); }
r.sort((a, b) => a - b); console.log('median', r[20].toFixed(1));
process.exit(0);
