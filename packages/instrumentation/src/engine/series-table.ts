import type { CompiledTool, SeriesTable } from './create-engine.js';
import type { ArgumentSeries, SeriesRegistry } from './series-registry.js';

/** Above this many checked arguments a tool's series are found through a map rather than a scan. */
const SCAN_LIMIT = 8;

/** Index series by tool, then by the argument path text the checker reports. */
export function seriesTable(
  series: readonly ArgumentSeries[],
  registry: SeriesRegistry,
): SeriesTable {
  const byTool = new Map<string, ArgumentSeries[]>();
  for (const entry of series) {
    const list = byTool.get(entry.tool);
    if (list === undefined) byTool.set(entry.tool, [entry]);
    else list.push(entry);
  }
  const table = new Map<string, CompiledTool>();
  for (const [tool, list] of byTool) {
    table.set(tool, {
      series: registry.tool(tool),
      list,
      byArgument: list.length > SCAN_LIMIT ? new Map(list.map((s) => [s.argument, s])) : undefined,
    });
  }
  return table;
}
