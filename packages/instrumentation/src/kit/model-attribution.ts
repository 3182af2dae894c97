/**
 * A run's attribution from the model an application gave its framework: an
 * AI SDK `LanguageModel` object (its `modelId` and `provider`) or a model
 * id string (a gateway or router id such as `openai/gpt-5`). Code and
 * configuration values only, never model output.
 */
import type { RunAttribution } from '../engine/run-scope.js';
import { hasProperties } from './values.js';

/** The model part of one attribution: a model object's id and provider, or a model id string's. */
function readModel(model: unknown): { model?: string; provider?: string } {
  let modelId: string | undefined;
  let provider: string | undefined;
  if (typeof model === 'string') {
    modelId = model;
    const slash = model.indexOf('/');
    provider = slash > 0 ? model.slice(0, slash) : undefined;
  } else if (hasProperties(model)) {
    modelId = typeof model.modelId === 'string' ? model.modelId : undefined;
    const name = model.provider;
    provider = typeof name === 'string' ? name.split('.', 1)[0] : undefined;
  }
  return { model: modelId, provider: provider === '' ? undefined : provider };
}

/**
 * Attributions made, by model and agent name: an application hands its
 * framework the same model object (or id) on every call, so each is read
 * once. Model ids given as strings are kept up to `MAX_KEPT`, then forgotten.
 */
const byObject = new WeakMap<object, Map<unknown, RunAttribution>>();
const byString = new Map<string, Map<unknown, RunAttribution>>();
const MAX_KEPT = 256;

/**
 * A model object's `modelId` and the first part of its `provider`
 * (`openai.chat` → `openai`), or a model id string and its prefix up to the
 * first `/`; and the agent's name (a `ToolLoopAgent`'s `id`, a Mastra agent's
 * `name`).
 */
export function modelRun(model: unknown, agent?: unknown): RunAttribution {
  const name = typeof agent === 'string' ? agent : undefined;
  let byAgent: Map<unknown, RunAttribution> | undefined;
  if (typeof model === 'string') {
    byAgent = byString.get(model);
    if (byAgent === undefined) {
      if (byString.size >= MAX_KEPT) byString.clear();
      byString.set(model, (byAgent = new Map<unknown, RunAttribution>()));
    }
  } else if (hasProperties(model)) {
    byAgent = byObject.get(model);
    if (byAgent === undefined) byObject.set(model, (byAgent = new Map<unknown, RunAttribution>()));
  }
  const kept = byAgent?.get(name);
  if (kept !== undefined) return kept;
  const run: RunAttribution = Object.freeze({ ...readModel(model), agent: name });
  if (byAgent !== undefined && byAgent.size < MAX_KEPT) byAgent.set(name, run);
  return run;
}
