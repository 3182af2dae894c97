/** Builders for the two input formats `argcheck report` reads. */

export interface Check {
  tool?: string;
  argument?: string;
  set?: string;
  in_set: string;
  in_set_normalised: string;
  shape?: string;
  value?: string;
}

const REFUND = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };

/** One plain JSON line, defaulting to refund_order.reason_code. */
export function plainLine(check: Check): string {
  return JSON.stringify({ ...REFUND, ...check });
}

/** One collector file-exporter line: an ExportLogsServiceRequest holding these records. */
export function otlpLine(
  records: { eventName: string; attributes: Record<string, string> }[],
): string {
  return JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
        scopeLogs: [
          {
            scope: { name: '@argcheck/instrumentation' },
            logRecords: records.map(({ eventName, attributes }) => ({
              timeUnixNano: '1700000000000000000',
              eventName,
              attributes: Object.entries(attributes).map(([key, stringValue]) => ({
                key,
                value: { stringValue },
              })),
            })),
          },
        ],
      },
    ],
  });
}

/** An OTLP record of a check, defaulting to refund_order.reason_code. */
export function otlpCheck(check: Check): { eventName: string; attributes: Record<string, string> } {
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...REFUND, ...check })) {
    if (value !== undefined) attributes[key] = value;
  }
  return { eventName: 'tool_argument_value_check', attributes };
}
