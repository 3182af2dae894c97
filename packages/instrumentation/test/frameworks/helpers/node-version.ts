/** `ai` 7 and `@mastra/core` 1 are ESM-only or need Node 22: their tests skip on older Node. */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

export function skipBelowNode22(ctx: Mocha.Context, framework: string): void {
  if (NODE_MAJOR < 22) {
    ctx.skip();
  }
  void framework;
}

/** The reason given where the skip is reported (mocha prints the title of a skipped suite's tests). */
export const NODE_22_REASON = 'needs Node >= 22 (the framework does not load on older Node)';
