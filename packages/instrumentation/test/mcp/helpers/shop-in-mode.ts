import type { CheckMode } from '@argcheck/core';
import { CONFIGURED_ARGUMENTS, CONFIGURED_SETS } from '@argcheck/testing/shop';
import { recorded } from './recorded.js';
import type { Recorded } from './recorded.js';
import type { ShopConnection, ShopLine } from '@argcheck/testing/shop';

export interface ShopInMode {
  readonly host: Recorded;
  readonly connection: ShopConnection;
  close(): Promise<void>;
}

/**
 * A shop connection on `line`, its client instrumented (`instrumentMcpClient`)
 * in `mode` with the configured sets, its catalog listed and the derived sets
 * loaded: ready for calls.
 */
export async function shopInMode(line: ShopLine, mode: CheckMode): Promise<ShopInMode> {
  const host = recorded({
    mode,
    valueSets: CONFIGURED_SETS,
    checkedArguments: CONFIGURED_ARGUMENTS,
  });
  const connection = await line.connect({ instrument: (c) => host.inst.instrumentMcpClient(c) });
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
