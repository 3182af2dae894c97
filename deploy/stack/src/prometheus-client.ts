/** Prometheus's HTTP API, as far as the stack, its pictures and its tests need it. */

export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface RangeSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

export interface RuleInfo {
  name: string;
  type: 'recording' | 'alerting';
  query: string;
  health: string;
  lastError?: string;
  duration?: number;
  state?: string;
  lastEvaluation: string;
  alerts?: { labels: Record<string, string>; state: string; value: string }[];
}

export interface RuleGroupInfo {
  name: string;
  file: string;
  lastEvaluation: string;
  rules: RuleInfo[];
}

export class PrometheusClient {
  constructor(readonly baseUrl: string) {}

  private async api<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const url = new URL(`/api/v1/${path}`, this.baseUrl);
    for (const [k, v] of Object.entries(params)) url.searchParams.append(k, v);
    const res = await fetch(url);
    const body = (await res.json()) as {
      status: string;
      data: T;
      error?: string;
      errorType?: string;
    };
    if (body.status !== 'success') {
      throw new Error(
        `Prometheus ${path} ${JSON.stringify(params)}: ${body.errorType}: ${body.error}`,
      );
    }
    return body.data;
  }

  /** Instant query; `time` in seconds since the epoch (default: now). */
  async query(expr: string, time?: number): Promise<Sample[]> {
    const params: Record<string, string> = { query: expr };
    if (time !== undefined) params.time = String(time);
    const data = await this.api<{ resultType: string; result: Sample[] }>('query', params);
    if (data.resultType !== 'vector') {
      throw new Error(`expected a vector from ${expr}, got ${data.resultType}`);
    }
    return data.result;
  }

  /** The raw samples of a range-vector selector such as `x{job="a"}[5m]`, at `time` (default: now). */
  async samples(selector: string, time?: number): Promise<RangeSeries[]> {
    const params: Record<string, string> = { query: selector };
    if (time !== undefined) params.time = String(time);
    const data = await this.api<{ resultType: string; result: RangeSeries[] }>('query', params);
    if (data.resultType !== 'matrix') {
      throw new Error(`expected a matrix from ${selector}, got ${data.resultType}`);
    }
    return data.result;
  }

  /** Range query; times in seconds since the epoch, `step` in seconds. */
  async queryRange(expr: string, start: number, end: number, step: number): Promise<RangeSeries[]> {
    const data = await this.api<{ resultType: string; result: RangeSeries[] }>('query_range', {
      query: expr,
      start: String(start),
      end: String(end),
      step: String(step),
    });
    return data.result;
  }

  /** The single value of a query that returns one sample, or undefined when it returns none. */
  async scalar(expr: string): Promise<number | undefined> {
    const result = await this.query(expr);
    if (result.length > 1) throw new Error(`${expr} returned ${result.length} samples`);
    return result[0] ? Number(result[0].value[1]) : undefined;
  }

  async ruleGroups(): Promise<RuleGroupInfo[]> {
    return (await this.api<{ groups: RuleGroupInfo[] }>('rules')).groups;
  }

  async alerts(): Promise<{ labels: Record<string, string>; state: string; value: string }[]> {
    return (
      await this.api<{
        alerts: { labels: Record<string, string>; state: string; value: string }[];
      }>('alerts')
    ).alerts;
  }

  async labelValues(label: string, match?: string): Promise<string[]> {
    return this.api<string[]>(`label/${label}/values`, match ? { 'match[]': match } : {});
  }

  async labelNames(): Promise<string[]> {
    return this.api<string[]>('labels');
  }

  async activeAlertmanagers(): Promise<string[]> {
    const data = await this.api<{ activeAlertmanagers: { url: string }[] }>('alertmanagers');
    return data.activeAlertmanagers.map((a) => a.url);
  }
}
