/**
 * Whether the installed `@mastra/core` runs agent tool hooks (added in a
 * later 1.x release; `inst.mastraHooks()` needs them). Read from the class
 * the hooks run in, since no version constant says so.
 */
export async function mastraHasToolHooks(): Promise<boolean> {
  const { Agent } = await import('@mastra/core/agent');
  return (
    typeof (Agent.prototype as unknown as Record<string, unknown>).wrapToolsWithHooks === 'function'
  );
}
