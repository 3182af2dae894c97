import { esmSuite } from '../fixtures/esm-suite.js';

esmSuite('openai-agents', 'OpenAI Agents SDK');
