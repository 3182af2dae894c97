/**
 * OTLP on loopback: a log backend that takes `POST /v1/logs` (what a
 * collector's otlp_http exporter sends), and the reader of OTLP JSON lines
 * (what the collector's file exporter writes, one ExportLogsServiceRequest
 * per line).
 */
import { existsSync, readFileSync } from 'node:fs';
import { HttpOwner } from './owners.js';

/** An OTLP/HTTP log backend: accepts `POST /v1/logs` and answers an empty ExportLogsServiceResponse. */
export class OtlpLogSink {
  readonly requests: { contentType: string; bytes: number }[] = [];
  private readonly http = new HttpOwner();

  constructor() {
    this.http.on('/v1/logs', (res, req) => {
      if (req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.on('end', () => {
        const contentType = req.headers['content-type'] ?? '';
        this.requests.push({ contentType, bytes });
        const json = contentType.includes('json');
        res
          .writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' })
          .end(json ? '{}' : '');
      });
    });
  }

  /** `http://127.0.0.1:<port>`, once started: the exporter appends `/v1/logs`. */
  get baseUrl(): string {
    return this.http.origin;
  }

  async start(): Promise<this> {
    await this.http.start();
    return this;
  }

  stop(): Promise<void> {
    return this.http.close();
  }
}

/** An OTLP attribute value as JSON carries it. */
export interface AnyValue {
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

/** The log records of OTLP JSON lines. */
export function readLogLines(text: string): FileLogRecord[] {
  const records: FileLogRecord[] = [];
  for (const line of text.split('\n')) {
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

/** The log records of a file of OTLP JSON lines; none when there is no file yet. */
export function readLogFile(path: string): FileLogRecord[] {
  return existsSync(path) ? readLogLines(readFileSync(path, 'utf8')) : [];
}
