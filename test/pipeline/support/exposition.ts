/** Reading the Prometheus text exposition of the collector's Prometheus exporter. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LABEL = /([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

/** Every sample line (comments skipped). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const brace = line.indexOf('{');
    const space = line.lastIndexOf(' ');
    if (brace === -1) {
      samples.push({
        name: line.slice(0, space),
        labels: {},
        value: Number(line.slice(space + 1)),
      });
      continue;
    }
    const close = line.lastIndexOf('}');
    const labels = Object.fromEntries(
      [...line.slice(brace + 1, close).matchAll(LABEL)].map((m) => [m[1]!, unescape(m[2]!)]),
    );
    samples.push({ name: line.slice(0, brace), labels, value: Number(line.slice(close + 2)) });
  }
  return samples;
}

/** Samples of one series name, exactly (so `_total` does not match `_total_x`). */
export const samplesNamed = (text: string, name: string): Sample[] =>
  parseExposition(text).filter((s) => s.name === name);

/**
 * Samples in argcheck's namespace, however an application spells it: every
 * name that starts with tool_argument, ignoring case.
 */
export const argcheckNamespace = (text: string): Sample[] =>
  parseExposition(text).filter((s) => /^tool_argument/i.test(s.name));
