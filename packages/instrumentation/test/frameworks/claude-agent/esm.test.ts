import { esmSuite } from '../fixtures/esm-suite.js';
import { claudeAgentUnavailable } from './helpers/sdk.js';

esmSuite('claude-agent', 'Claude Agent SDK', claudeAgentUnavailable);
