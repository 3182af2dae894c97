import type { CompiledTool, SeriesTable } from './create-engine.js';
import type { ArgumentSeries, SeriesRegistry } from './series-registry.js';

/** Index series by tool, then by the argument path text the checker reports. */
export function seriesTable(
  series: readonly ArgumentSeries[],
  registry: SeriesRegistry,
): SeriesTable {
  const table = new Map<string, CompiledTool & { arguments: Map<string, ArgumentSeries> }>();
  for (const entry of series) {
    let tool = table.get(entry.tool);
    if (tool === undefined) {
      tool = { series: registry.tool(entry.tool), arguments: new Map() };
      table.set(entry.tool, tool);
    }
    tool.arguments.set(entry.argument, entry);
  }
  return table;
}
