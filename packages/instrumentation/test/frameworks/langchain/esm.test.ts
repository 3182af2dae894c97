import { esmSuite } from '../fixtures/esm-suite.js';

esmSuite('langchain', 'LangChain.js with LangGraph');
