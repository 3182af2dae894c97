/**
 * How long an integration holds a call for a new catalog's sets to load. They
 * are the catalog's own enums, so this is normally a few microtasks; the bound
 * keeps the observer from ever holding up a tool listing or a tool call.
 */
export const MAX_CATALOG_WAIT_MS = 1_000;

/** `ready`, or a timeout of `MAX_CATALOG_WAIT_MS`, whichever settles first. Never rejects. */
export function boundedWait(ready: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, MAX_CATALOG_WAIT_MS);
    timer.unref?.();
  });
  return Promise.race([ready.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}
