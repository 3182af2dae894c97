// The ESM builds of @langchain/core and LangGraph, for the ESM probe (fixtures/esm-probe.ts).
import * as chatModels from '@langchain/core/language_models/chat_models';
import * as messages from '@langchain/core/messages';
import * as tools from '@langchain/core/tools';
import * as prebuilt from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import type { ProbeRun } from '../fixtures/esm-probe.js';
import { runLangChain } from './langchain-run.js';

export const run: ProbeRun = async (h, { explicit, stream }) => {
  const { received, answers } = await runLangChain(
    { chatModels, messages, tools, prebuilt, z },
    { stream, ...(explicit ? { wrapTool: (t) => h.inst.instrumentLangChainTool(t) } : {}) },
  );
  return { received, answers };
};
