import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import type { AgentsModules } from './agents-run.js';

const require = createRequire(import.meta.url);

/**
 * The CommonJS build of `@openai/agents`, loaded anew so that the require
 * hook of the instrumentation registered just before sees it (another test
 * may have loaded it under an instrumentation since disabled).
 */
export function freshAgentsCjs(): AgentsModules {
  const marker = `${sep}node_modules${sep}@openai${sep}`;
  for (const key of Object.keys(require.cache)) if (key.includes(marker)) delete require.cache[key];
  return {
    agents: require('@openai/agents') as AgentsModules['agents'],
    testing: require('@openai/agents-core/testing') as AgentsModules['testing'],
    z: (require('zod') as { z: AgentsModules['z'] }).z,
  };
}

/** The CommonJS `tool` module whose `invokeFunctionTool` the runner calls. */
export function agentsToolModuleCjs(): Record<string, unknown> {
  // Not in the package's exports map: required by its path, next to the index.
  const index = require.resolve('@openai/agents-core');
  return require(join(dirname(index), 'tool.js')) as Record<string, unknown>;
}
