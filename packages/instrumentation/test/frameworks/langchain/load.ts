import { createRequire } from 'node:module';
import { sep } from 'node:path';
import type { LangChainModules } from './langchain-run.js';

const require = createRequire(import.meta.url);

/**
 * The CommonJS builds of `@langchain/core` and LangGraph, loaded anew so that
 * the require hook of the instrumentation registered just before sees them.
 */
export function freshLangChainCjs(): LangChainModules {
  const marker = `${sep}node_modules${sep}@langchain${sep}`;
  for (const key of Object.keys(require.cache)) if (key.includes(marker)) delete require.cache[key];
  return {
    chatModels:
      require('@langchain/core/language_models/chat_models') as LangChainModules['chatModels'],
    messages: require('@langchain/core/messages') as LangChainModules['messages'],
    tools: require('@langchain/core/tools') as LangChainModules['tools'],
    prebuilt: require('@langchain/langgraph/prebuilt') as LangChainModules['prebuilt'],
    z: (require('zod') as { z: LangChainModules['z'] }).z,
  };
}
