/**
 * A run's attribution from the model an application gave its framework: an
 * AI SDK `LanguageModel` object (its `modelId` and `provider`) or a model
 * id string (a gateway or router id such as `openai/gpt-5`). Code and
 * configuration values only, never model output.
 */
import type { RunAttribution } from '../engine/run-scope.js';
import { hasProperties } from './values.js';

/**
 * A model object's `modelId` and the first part of its `provider`
 * (`openai.chat` → `openai`), or a model id string and its prefix up to the
 * first `/`; and the agent's name (a `ToolLoopAgent`'s `id`, a Mastra agent's
 * `name`).
 */
export function modelRun(model: unknown, agent?: unknown): RunAttribution {
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
  return {
    model: modelId,
    provider: provider === '' ? undefined : provider,
    agent: typeof agent === 'string' ? agent : undefined,
  };
}
