/**
 * Attribution: which model, provider, agent, prompt version and tool
 * definition produced a call, as attribute values on the call-level series.
 * Every value comes from code, configuration or a catalog (a framework's
 * model object, an option, a baggage entry set by the application, a hash
 * of a tool's listed definition), never from model output, and each
 * attribute is bounded: its first `maxValues` distinct values get series of
 * their own, later ones count under `ATTRIBUTION_OTHER` (with one diag
 * warning per attribute). docs/decisions/0027-attribution.md says why.
 *
 * An `Attribution` is interned: the same values give the same object, with a
 * small integer `id` that series use to find their variant by index. `id` 0
 * is the call with nothing known, whose series are the plain ones.
 */
import type { DiagLogger } from '@opentelemetry/api';
import { ATTRIBUTION_ATTRIBUTES, ATTRIBUTION_OTHER } from '../semconv.js';
import { safeName } from './safe-name.js';

/** The attribution keys, in the order their values are given and their attributes written. */
export const ATTRIBUTION_KEYS = ATTRIBUTION_ATTRIBUTES;

export interface Attribution {
  /** Dense from 0; 0 is `NO_ATTRIBUTION`. */
  readonly id: number;
  /** The attribute values, bounded; only the keys known. */
  readonly attributes: Readonly<Record<string, string>>;
}

export const NO_ATTRIBUTION: Attribution = Object.freeze({ id: 0, attributes: Object.freeze({}) });

/** What a call's producers are, as raw strings (unbounded until interned). */
export interface AttributionValues {
  model?: string | undefined;
  provider?: string | undefined;
  agent?: string | undefined;
  promptVersion?: string | undefined;
  toolDefinition?: string | undefined;
}

export interface Attributions {
  /** The interned attribution of these values. Never throws. */
  of(
    model: string | undefined,
    provider: string | undefined,
    agent: string | undefined,
    promptVersion: string | undefined,
    toolDefinition: string | undefined,
  ): Attribution;
  /** Attributions made so far, `NO_ATTRIBUTION` first. */
  readonly all: readonly Attribution[];
}

export interface AttributionsOptions {
  /** Distinct values per attribute that get series of their own. */
  readonly maxValues: number;
  readonly diag: () => DiagLogger;
}

/**
 * Most attributions (combinations) over the registry's life. With each
 * attribute bounded the product is bounded too, but five attributes of ten
 * values each would allow 10^5 variants of every series; past this many, a
 * new combination counts as all-overflow.
 */
export const MAX_ATTRIBUTIONS = 256;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function createAttributions(options: AttributionsOptions): Attributions {
  const { maxValues } = options;
  const all: Attribution[] = [NO_ATTRIBUTION];
  const byKey = new Map<string, Attribution>([['', NO_ATTRIBUTION]]);
  /** Per attribute: raw value → the value written. */
  const bounded = ATTRIBUTION_KEYS.map(() => new Map<string, string>());
  const spent = ATTRIBUTION_KEYS.map(() => false);
  let combinationsSpent = false;
  // The values of the previous call: a process mostly sees the same strings
  // again, compared by pointer before anything is looked up.
  let lastSet = false;
  let lastModel: string | undefined;
  let lastProvider: string | undefined;
  let lastAgent: string | undefined;
  let lastPromptVersion: string | undefined;
  let lastToolDefinition: string | undefined;
  let lastAttribution = NO_ATTRIBUTION;

  const boundedValue = (index: number, raw: string): string => {
    const values = bounded[index] as Map<string, string>;
    const known = values.get(raw);
    if (known !== undefined) return known;
    if (values.size < maxValues) {
      const value = safeName(raw);
      values.set(raw, value);
      return value;
    }
    if (!spent[index]) {
      spent[index] = true;
      options
        .diag()
        .warn(
          `argcheck: more than ${maxValues} distinct ${ATTRIBUTION_KEYS[index]} values; ` +
            `later ones count as ${ATTRIBUTION_OTHER} (attribution.maxValues).`,
        );
    }
    return ATTRIBUTION_OTHER;
  };

  const intern = (values: readonly (string | undefined)[]): Attribution => {
    const attributes: Record<string, string> = {};
    const parts: string[] = [];
    for (let i = 0; i < ATTRIBUTION_KEYS.length; i++) {
      const raw = values[i];
      if (raw === undefined) {
        parts.push('');
        continue;
      }
      const value = boundedValue(i, raw);
      attributes[ATTRIBUTION_KEYS[i] as string] = value;
      parts.push(`=${value}`);
    }
    const key = parts.some((p) => p !== '') ? parts.join('\u0000') : '';
    const known = byKey.get(key);
    if (known !== undefined) return known;
    if (all.length >= MAX_ATTRIBUTIONS) {
      if (!combinationsSpent) {
        combinationsSpent = true;
        options
          .diag()
          .warn(
            `argcheck: more than ${MAX_ATTRIBUTIONS} combinations of attribution values; ` +
              `later ones count as ${ATTRIBUTION_OTHER} throughout.`,
          );
      }
      return overflow(values);
    }
    return keep(key, attributes);
  };

  /** A new attribution under `key`, with the next id. */
  const keep = (key: string, attributes: Record<string, string>): Attribution => {
    const attribution: Attribution = Object.freeze({
      id: all.length,
      attributes: Object.freeze(attributes),
    });
    byKey.set(key, attribution);
    all.push(attribution);
    return attribution;
  };

  /** The combination spent: every known attribute as overflow. Made once per set of keys present. */
  const overflow = (values: readonly (string | undefined)[]): Attribution => {
    const parts = ATTRIBUTION_KEYS.map((_, i) =>
      values[i] === undefined ? '' : `=${ATTRIBUTION_OTHER}`,
    );
    const key = parts.join('\u0000');
    const known = byKey.get(key);
    if (known !== undefined) return known;
    const attributes: Record<string, string> = {};
    ATTRIBUTION_KEYS.forEach((name, i) => {
      if (values[i] !== undefined) attributes[name] = ATTRIBUTION_OTHER;
    });
    return keep(key, attributes);
  };

  return {
    of(model, provider, agent, promptVersion, toolDefinition) {
      if (
        lastSet &&
        lastModel === model &&
        lastProvider === provider &&
        lastAgent === agent &&
        lastPromptVersion === promptVersion &&
        lastToolDefinition === toolDefinition
      ) {
        return lastAttribution;
      }
      try {
        const values = [model, provider, agent, promptVersion, toolDefinition].map(text);
        const attribution = values.every((v) => v === undefined) ? NO_ATTRIBUTION : intern(values);
        lastSet = true;
        lastModel = model;
        lastProvider = provider;
        lastAgent = agent;
        lastPromptVersion = promptVersion;
        lastToolDefinition = toolDefinition;
        lastAttribution = attribution;
        return attribution;
      } catch {
        return NO_ATTRIBUTION;
      }
    },
    all,
  };
}
