import { ArgcheckConfigError, ErrorCode } from '../errors.js';

/** One dotted segment: a property key, then `arrays` levels of array elements. */
export interface PathSegment {
  readonly key: string;
  readonly arrays: number;
}

export interface ArgumentPath {
  /** The path as configured; this, never a concrete index, is what telemetry sees. */
  readonly text: string;
  readonly segments: readonly PathSegment[];
}

/** A value found at a path, with where it sits, for copy-on-write rewrites. */
export interface LocatedValue {
  readonly value: unknown;
  /** Property keys and array indexes from the root of the arguments. */
  readonly location: readonly (string | number)[];
}

const SEGMENT = /^([^.[\]]+)((?:\[\])*)$/;

/** Parse `reason_code`, `filters.status`, `items[].warehouse_code`; throws on bad syntax. */
export function compileArgumentPath(text: string, tool: string): ArgumentPath {
  const bad = (why: string): never => {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_PATH,
      `checkedArguments["${tool}"]: argument path ${JSON.stringify(text)} ${why}. ` +
        'Use dotted property names with [] for array elements, e.g. "items[].warehouse_code".',
    );
  };
  if (typeof text !== 'string' || text.length === 0) bad('is empty');
  const segments = text.split('.').map((part) => {
    const match = SEGMENT.exec(part);
    if (!match) return bad(`has an invalid segment ${JSON.stringify(part)}`);
    return { key: match[1] as string, arrays: (match[2] as string).length / 2 };
  });
  return { text, segments };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every value present at `path` inside `root`. Absent properties yield nothing;
 * only own properties count, so `__proto__` or `constructor` are found only
 * when the arguments really carry them. The steps walked so far are one stack,
 * copied once per value found (an array of 2,000 elements is 2,000 locations,
 * not twice as many intermediate ones).
 */
export function collectValues(root: unknown, path: ArgumentPath): LocatedValue[] {
  const found: LocatedValue[] = [];
  const steps: (string | number)[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth === path.segments.length) {
      found.push({ value: node, location: steps.slice() });
      return;
    }
    const segment = path.segments[depth] as PathSegment;
    if (!isRecord(node) || !Object.hasOwn(node, segment.key)) return;
    steps.push(segment.key);
    descend(node[segment.key], segment.arrays, depth);
    steps.pop();
  };
  const descend = (node: unknown, arrays: number, depth: number): void => {
    if (arrays === 0) {
      visit(node, depth + 1);
      return;
    }
    if (!Array.isArray(node)) return;
    for (let i = 0; i < node.length; i++) {
      steps.push(i);
      descend(node[i], arrays - 1, depth);
      steps.pop();
    }
  };
  visit(root, 0);
  return found;
}

/** `items[2].warehouse_code`: a concrete location for humans (repair messages). */
export function describeLocation(location: readonly (string | number)[]): string {
  let text = '';
  for (const step of location) {
    if (typeof step === 'number') text += `[${step}]`;
    else text += text.length === 0 ? step : `.${step}`;
  }
  return text;
}
