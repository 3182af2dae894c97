import type { CheckMode } from '@argcheck/core';
import { instrumentClient } from '../../../src/mcp/index.js';
import { CONFIGURED_ARGUMENTS, CONFIGURED_SETS } from '../fixtures/shop-catalog.js';
import { createHostDouble } from './host-double.js';
import type { HostDouble } from './host-double.js';
import type { ShopConnection, ShopLine } from './shop-connections.js';

export interface ShopInMode {
  readonly host: HostDouble;
  readonly connection: ShopConnection;
  close(): Promise<void>;
}

/**
 * A shop connection on `line`, its client instrumented through a host double
 * in `mode` with the configured sets, its catalog listed and the derived sets
 * loaded: ready for calls.
 */
export async function shopInMode(line: ShopLine, mode: CheckMode): Promise<ShopInMode> {
  const host = createHostDouble({
    mode,
    valueSets: CONFIGURED_SETS,
    checkedArguments: CONFIGURED_ARGUMENTS,
  });
  const connection = await line.connect({ instrument: (c) => instrumentClient(c, host) });
  await connection.client.listTools();
  await host.settled();
  return {
    host,
    connection,
    async close() {
      await connection.close();
      host.close();
    },
  };
}
