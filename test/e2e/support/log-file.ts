/** Reading the collector's file exporter output (one OTLP JSON ExportLogsServiceRequest per line). */
import { existsSync, readFileSync } from 'node:fs';

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}

export interface FileLogRecord {
  /** service.name of the resource that sent it. */
  service: string | undefined;
  eventName: string | undefined;
  /** Attribute values as they are in the file (kind and value). */
  attributes: Record<string, AnyValue>;
}

interface ExportLogsServiceRequest {
  resourceLogs?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeLogs?: {
      logRecords?: { eventName?: string; attributes?: { key: string; value: AnyValue }[] }[];
    }[];
  }[];
}

export function readLogFile(path: string): FileLogRecord[] {
  if (!existsSync(path)) return [];
  const records: FileLogRecord[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const request = JSON.parse(line) as ExportLogsServiceRequest;
    for (const rl of request.resourceLogs ?? []) {
      const service = rl.resource?.attributes?.find((a) => a.key === 'service.name')?.value
        .stringValue;
      for (const sl of rl.scopeLogs ?? []) {
        for (const r of sl.logRecords ?? []) {
          records.push({
            service,
            eventName: r.eventName,
            attributes: Object.fromEntries((r.attributes ?? []).map((a) => [a.key, a.value])),
          });
        }
      }
    }
  }
  return records;
}

/** A record's attributes as one canonical string (keys sorted), for multiset comparisons. */
export function canonical(attributes: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(attributes)
        .sort()
        .map((k) => [k, attributes[k]]),
    ),
  );
}

/** Counts of each canonical string. */
export function multiset(items: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
}
