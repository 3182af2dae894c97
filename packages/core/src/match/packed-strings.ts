/**
 * Many strings kept as one run of UTF-16 code units: string i is
 * `codes[starts[i] .. starts[i + 1])`.
 *
 * A compiled set's normalised members are read by code unit (hashing,
 * trigrams, edit distance) and never handed out, so they need not be string
 * objects. A million of them as strings are a million objects that survive a
 * refresh: the young-generation collector copies them, and every major
 * collection marks them, in pauses of tens of milliseconds on the event loop
 * (`docs/scaling.md`). Packed, they are two typed arrays, and the strings
 * they were made from die young, which costs the collector nothing.
 */

export class PackedStrings {
  constructor(
    /** The code units of every string, one after the other. */
    readonly codes: Uint16Array,
    /** Where string i starts in `codes`; `starts[count]` is where the last one ends. */
    readonly starts: Uint32Array,
  ) {}

  /** Pack `strings`, in order. */
  static of(strings: readonly string[]): PackedStrings {
    let total = 0;
    for (const s of strings) total += s.length;
    const builder = new PackedStringsBuilder(strings.length, total);
    for (const s of strings) builder.push(s);
    return builder.build();
  }

  get count(): number {
    return this.starts.length - 1;
  }

  lengthOf(i: number): number {
    return this.starts[i + 1]! - this.starts[i]!;
  }

  /** Whether string i is `s`. */
  equals(i: number, s: string): boolean {
    const { codes, starts } = this;
    const from = starts[i]!;
    if (starts[i + 1]! - from !== s.length) return false;
    for (let k = 0; k < s.length; k++) {
      if (codes[from + k] !== s.charCodeAt(k)) return false;
    }
    return true;
  }

  /** String i as a string object (for the rare answers that need one). */
  stringAt(i: number): string {
    return stringOf(this.codes, this.starts[i]!, this.starts[i + 1]!);
  }
}

/** Fills a `PackedStrings` one string at a time; both arrays grow as needed. */
export class PackedStringsBuilder {
  private codes: Uint16Array;
  private starts: Uint32Array;
  private added = 0;
  private used = 0;

  /**
   * @param count how many strings will be pushed (or a guess)
   * @param capacity code units to reserve (the sum of their lengths, or a guess)
   */
  constructor(count: number, capacity: number) {
    this.starts = new Uint32Array(Math.max(16, count + 1));
    this.codes = new Uint16Array(Math.max(16, capacity));
  }

  /** Strings pushed so far. */
  get count(): number {
    return this.added;
  }

  push(s: string): void {
    const at = this.reserve(s.length);
    const codes = this.codes;
    for (let k = 0; k < s.length; k++) codes[at + k] = s.charCodeAt(k);
  }

  /** Push the string held in `codes[from, to)`. */
  pushCodes(codes: Uint16Array, from: number, to: number): void {
    const at = this.reserve(to - from);
    this.codes.set(codes.subarray(from, to), at);
  }

  /**
   * The strings pushed so far; the builder must not be used afterwards. The
   * arrays are views of the builder's: capacity reserved and not used stays
   * reserved (a copy to trim it would be one long pause at a million strings),
   * so reserve what the strings need, not more.
   */
  build(): PackedStrings {
    return new PackedStrings(
      this.codes.subarray(0, this.used),
      this.starts.subarray(0, this.added + 1),
    );
  }

  /** Makes room for one more string of `length` code units; returns where it goes. */
  private reserve(length: number): number {
    const at = this.used;
    if (at + length > this.codes.length) {
      const grown = new Uint16Array(Math.max(2 * this.codes.length, at + length));
      grown.set(this.codes.subarray(0, at));
      this.codes = grown;
    }
    if (this.added + 2 > this.starts.length) {
      const grown = new Uint32Array(2 * this.starts.length);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.used = at + length;
    this.starts[++this.added] = this.used;
    return at;
  }
}

/**
 * Code-unit order of `codes[aFrom, aTo)` and `codes[bFrom, bTo)`: negative,
 * zero or positive, as `<` on the two strings would have it.
 */
export function compareCodes(
  codes: Uint16Array,
  aFrom: number,
  aTo: number,
  bFrom: number,
  bTo: number,
): number {
  const common = Math.min(aTo - aFrom, bTo - bFrom);
  for (let k = 0; k < common; k++) {
    const d = codes[aFrom + k]! - codes[bFrom + k]!;
    if (d !== 0) return d;
  }
  return aTo - aFrom - (bTo - bFrom);
}

/** FNV-1a over the code units `codes[from, to)`. */
export function hashCodes(codes: Uint16Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ codes[k]!, 0x01000193);
  return h >>> 0;
}

/** FNV-1a over the code units of `s`: `hashCodes` of the same string packed. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

/** Chunks keep `String.fromCharCode` under engines' argument-count limits. */
const CHUNK = 4096;

/**
 * One plain array per length up to this, reused to pass a short string's code
 * units to `String.fromCharCode`: a typed-array view is an object of its own
 * to allocate for every string, and costs about as much as the string.
 */
const SHORT = 64;
const shortCodes: number[][] = Array.from({ length: SHORT + 1 }, (_, n) =>
  new Array<number>(n).fill(0),
);

export function stringOf(codes: Uint16Array, from: number, to: number): string {
  if (to - from <= SHORT) {
    const units = shortCodes[to - from]!;
    for (let k = 0; k < units.length; k++) units[k] = codes[from + k]!;
    return String.fromCharCode.apply(null, units);
  }
  if (to - from <= CHUNK) return fromCodes(codes.subarray(from, to));
  let out = '';
  for (let k = from; k < to; k += CHUNK)
    out += fromCodes(codes.subarray(k, Math.min(to, k + CHUNK)));
  return out;
}

/** `apply` with the typed array: about 4 times faster than spreading it. */
function fromCodes(units: Uint16Array): string {
  return String.fromCharCode.apply(null, units as unknown as number[]);
}

/**
 * Writes the code units of `s` into `scratch` from position 0, growing it
 * when too short, and returns the array written to.
 */
export function codesOf(s: string, scratch: Uint16Array): Uint16Array {
  const out = scratch.length >= s.length ? scratch : new Uint16Array(2 * s.length);
  for (let k = 0; k < s.length; k++) out[k] = s.charCodeAt(k);
  return out;
}
