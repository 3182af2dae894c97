import type { ValueSetProvider } from '@argcheck/core';

/**
 * A provider that serves the sets of `overlay` and, for every other name,
 * those of `base`. Closing it closes the overlay only: the base belongs to
 * whoever created it.
 */
export function overlayProvider(
  base: ValueSetProvider,
  overlay: ValueSetProvider,
): ValueSetProvider {
  const own = new Set(overlay.names());
  const names = Object.freeze([...base.names().filter((n) => !own.has(n)), ...own]);
  const pick = (name: string): ValueSetProvider => (own.has(name) ? overlay : base);
  return {
    get: (name) => pick(name).get(name),
    async ready(wanted = names) {
      await Promise.all([
        base.ready(wanted.filter((n) => !own.has(n))),
        overlay.ready(wanted.filter((n) => own.has(n))),
      ]);
    },
    refresh: (name) => pick(name).refresh(name),
    status: () => [...base.status().filter((s) => !own.has(s.name)), ...overlay.status()],
    names: () => names,
    close: () => overlay.close(),
  };
}
