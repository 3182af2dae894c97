// The shop MCP server every MCP test, benchmark and the soak talk to: its
// catalog, its servers on both SDK lines, in memory and on stdio.
export * from './catalog.js';
export * from './connections.js';
export { createShopServerV1 } from './server-v1.js';
export type { ShopServerV1 } from './server-v1.js';
export { createShopServerV2 } from './server-v2.js';
export type { ShopServerV2 } from './server-v2.js';
export { stdioShop } from './stdio.js';
