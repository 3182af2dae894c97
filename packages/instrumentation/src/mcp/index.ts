// The MCP client integration, as the instrumentation class uses it. Internal to the package.
export { mcpModuleDefinitions } from './module-definitions.js';
export { instrumentClient } from './patch-client.js';
