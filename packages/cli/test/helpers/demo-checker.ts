import {
  createArgumentChecker,
  createValueSetProvider,
  functionValueSet,
  type ArgumentChecker,
  type ValueSetEntry,
} from '@argcheck/core';
import { CHECKED_ARGUMENTS } from '../../src/demo/tools.js';
import {
  activeHandles,
  componentIds,
  REASON_CODES,
  SET_COMPONENTS,
  SET_HANDLES,
  SET_REASON_CODES,
  SET_WAREHOUSES,
  WAREHOUSES,
} from '../../src/demo/value-set-data.js';
import type { CheckMode } from '@argcheck/core';

/** The demo's four sets, with the core checker over them: what the instrumentation runs. */
export async function demoChecker(
  mode: CheckMode = 'observe',
  seed = 1,
): Promise<{ checker: ArgumentChecker; close: () => void }> {
  const sets: Record<string, readonly ValueSetEntry[]> = {
    [SET_REASON_CODES]: REASON_CODES,
    [SET_COMPONENTS]: componentIds(seed).map((value) => ({ value })),
    [SET_HANDLES]: activeHandles(seed).map((value) => ({ value })),
    [SET_WAREHOUSES]: WAREHOUSES.map((value) => ({ value })),
  };
  const provider = createValueSetProvider({
    sources: Object.fromEntries(
      Object.entries(sets).map(([name, entries]) => [name, functionValueSet(() => entries)]),
    ),
  });
  await provider.ready();
  return {
    checker: createArgumentChecker({
      valueSets: provider,
      checkedArguments: CHECKED_ARGUMENTS,
      mode,
    }),
    close: () => provider.close(),
  };
}
