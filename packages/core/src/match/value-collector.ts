/**
 * The first step of compiling a set: the owner's values as they arrive,
 * packed (`packed-strings.ts`), repeats included, with the aliases given to
 * each. Sorting removes the repeats later (`compile-value-set.ts`), so adding
 * a value costs a copy of its code units and nothing else: no string is kept,
 * and a source can feed values in as it parses them.
 */
import { type PackedStrings, PackedStringsBuilder } from './packed-strings.js';

/** What a collector holds once the last value is in. */
export interface CollectedValues {
  /** Every value added, in order of arrival, repeats included. */
  readonly values: PackedStrings;
  /** The aliases given with the value at each arrival position, where any were. */
  readonly aliases: ReadonlyMap<number, readonly string[]>;
  /** The longest value or alias, in UTF-16 code units. */
  readonly longest: number;
}

export class ValueCollector {
  private readonly values: PackedStringsBuilder;
  private readonly aliases = new Map<number, readonly string[]>();
  private longest = 0;

  /** @param count the number of values expected, or a guess (the arrays grow as needed) */
  constructor(count = 0, codeUnits = 16 * count) {
    this.values = new PackedStringsBuilder(count, codeUnits);
  }

  /** Values added so far. */
  get count(): number {
    return this.values.count;
  }

  add(value: string, aliases?: readonly string[]): void {
    if (aliases !== undefined && aliases.length > 0) {
      this.aliases.set(this.values.count, aliases);
      for (const alias of aliases) this.longest = Math.max(this.longest, alias.length);
    }
    this.values.push(value);
    this.longest = Math.max(this.longest, value.length);
  }

  /** Everything added; the collector must not be used afterwards. */
  finish(): CollectedValues {
    return { values: this.values.build(), aliases: this.aliases, longest: this.longest };
  }
}
