/**
 * `Runner.prototype.run(agent, input, options)` (`@openai/agents-core`'s
 * `run` module; the exported `run()` goes through it): each run is one run
 * of the starting agent's model (`run-scope.ts`), named by the agent's
 * `name`. The model is the agent's `model` when it names one, else the
 * runner's `config.model`, as the SDK resolves it; a `Model` object names
 * none argcheck can read. A handoff to another agent keeps the starting
 * agent's attribution. A streamed run goes on after `run` resolves: its
 * rejected calls wait for their retry until `repairWindowMs` passes.
 */
import { withRun } from '../../engine/run-scope.js';
import type { RunAttribution } from '../../engine/run-scope.js';
import { hasProperties, isObject } from '../../kit/values.js';
import type { Patch } from '../../kit/wrapping.js';

function modelName(model: unknown): string | undefined {
  return typeof model === 'string' && model.length > 0 ? model : undefined;
}

/** What a run of `agent` by `runner` is attributed to. Never throws. */
export function agentsRun(runner: unknown, agent: unknown): RunAttribution | undefined {
  try {
    if (!isObject(agent)) return undefined;
    const config = hasProperties(runner) && isObject(runner.config) ? runner.config : undefined;
    const model = modelName(agent.model) ?? modelName(config?.model);
    const name = typeof agent.name === 'string' && agent.name.length > 0 ? agent.name : undefined;
    return { model, agent: name };
  } catch {
    return undefined;
  }
}

export function patchRunnerRun(): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      if (!on.active) return original.apply(this, args);
      const run = agentsRun(this, args[0]);
      if (run === undefined) return original.apply(this, args);
      const options = args[2];
      const streamed = isObject(options) && options.stream === true;
      return withRun(run, () => original.apply(this, args), !streamed);
    };
}
