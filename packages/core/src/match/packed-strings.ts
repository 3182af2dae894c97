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

/** Fills a `PackedStrings` one string at a time; the code units grow as needed. */
export class PackedStringsBuilder {
  private codes: Uint16Array;
  private readonly starts: Uint32Array;
  private added = 0;
  private used = 0;

  /**
   * @param count how many strings will be pushed
   * @param capacity code units to reserve (the sum of their lengths, or a guess)
   */
  constructor(count: number, capacity: number) {
    this.starts = new Uint32Array(count + 1);
    this.codes = new Uint16Array(Math.max(16, capacity));
  }

  push(s: string): void {
    let codes = this.codes;
    const at = this.used;
    if (at + s.length > codes.length) {
      const grown = new Uint16Array(Math.max(2 * codes.length, at + s.length));
      grown.set(codes.subarray(0, at));
      this.codes = codes = grown;
    }
    for (let k = 0; k < s.length; k++) codes[at + k] = s.charCodeAt(k);
    this.used = at + s.length;
    this.starts[++this.added] = this.used;
  }

  /** The strings pushed so far; the builder must not be used afterwards. */
  build(): PackedStrings {
    const starts =
      this.added === this.starts.length - 1 ? this.starts : this.starts.slice(0, this.added + 1);
    // A guess that overshot by more than an eighth is trimmed to size.
    const codes =
      this.codes.length - this.used > this.codes.length / 8
        ? this.codes.slice(0, this.used)
        : this.codes;
    return new PackedStrings(codes, starts);
  }
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

export function stringOf(codes: Uint16Array, from: number, to: number): string {
  if (to - from <= CHUNK) return String.fromCharCode(...codes.subarray(from, to));
  let out = '';
  for (let k = from; k < to; k += CHUNK) {
    out += String.fromCharCode(...codes.subarray(k, Math.min(to, k + CHUNK)));
  }
  return out;
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
