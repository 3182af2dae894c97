// The ESM build of @openai/agents, for the ESM probe (fixtures/esm-probe.ts).
import * as agents from '@openai/agents';
import * as testing from '@openai/agents-core/testing';
import { z } from 'zod';
import type { ProbeRun } from '../fixtures/esm-probe.js';
import { runAgents } from './agents-run.js';

export const run: ProbeRun = (h, { explicit, stream }) =>
  runAgents(
    { agents, testing, z },
    { stream, ...(explicit ? { inputGuardrails: [h.inst.openAIAgentsGuardrail()] } : {}) },
  );
