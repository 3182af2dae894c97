/** The versions of a module an integration knows how to patch. */
export interface VersionRange {
  /** The lowest supported release, `major.minor.patch`. */
  readonly lowest: string;
  /** The first release not supported, `major.minor.patch`. */
  readonly below: string;
}

function parts(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

/** `lowest <= version < below`; a prerelease of a supported version counts as that version. */
export function inRange(version: string | undefined, range: VersionRange): boolean {
  const v = version === undefined ? undefined : parts(version);
  const lowest = parts(range.lowest);
  const below = parts(range.below);
  if (v === undefined || lowest === undefined || below === undefined) return false;
  return compare(v, lowest) >= 0 && compare(v, below) < 0;
}

/** `>=1.0.0 <2.0.0`, as package managers write a range. */
export function rangeText(range: VersionRange): string {
  return `>=${range.lowest} <${range.below}`;
}
