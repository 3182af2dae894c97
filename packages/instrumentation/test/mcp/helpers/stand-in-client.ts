/** A stand-in client class; `calls` records the exact arguments that reached the real method. */
export function makeClass() {
  const calls: unknown[][] = [];
  class Thing {
    callTool(...args: unknown[]): string {
      calls.push(args);
      return 'sent';
    }
  }
  return { Thing, calls, proto: Thing.prototype as unknown as Record<string, unknown> };
}
