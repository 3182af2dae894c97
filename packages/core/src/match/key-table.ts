/**
 * Normalised key → member, without a `Map`: an open-addressing hash table of
 * member numbers in one typed array, over the packed normalised members the
 * near-miss index keeps anyway.
 *
 * A `Map` from a million keys held a million entries of pointers for the
 * garbage collector to trace at every major collection, and grew by rehashing
 * every key at once. This table holds numbers only, is sized once, and finds a
 * key by hashing it and comparing it with the normalised member in the slots
 * it probes (what that saved: docs/decisions/0012-packed-matching.md). Keys
 * claimed by two or more members are
 * rare; their claimants are kept in a small map beside it.
 */
import { AMBIGUOUS } from './match-tables.js';
import { hashCodes, hashString, type PackedStrings } from './packed-strings.js';

/** Slots per key, at least: lookups of absent keys stop at an empty slot soon. */
const LOAD = 2;

export class KeyTable {
  /** Member number + 1 per slot; 0 is empty. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Every claimant of a key two or more members claim, ascending. */
  private readonly shared = new Map<string, number[]>();
  /** 1 for each member whose key another member claims too. */
  private readonly sharing: Uint8Array;
  /** The longest key claimed: a longer one is answered without hashing it. */
  private longest = 0;

  /** @param keys the normalised member at each member number */
  constructor(private readonly keys: PackedStrings) {
    let size = 16;
    while (size < keys.count * LOAD) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    this.sharing = new Uint8Array(keys.count);
  }

  /** Slots in the table. */
  get size(): number {
    return this.slots.length;
  }

  /**
   * Write the zeros of slots `[from, to)`. A fresh table's pages are mapped
   * on first write; claims write at random places, so without this the first
   * slice of claims would fault in nearly all of them at once.
   */
  zero(from: number, to: number): void {
    this.slots.fill(0, from, to);
  }

  /** Record that member `member` normalises to its key; members are claimed in order. */
  claim(member: number): void {
    const { slots, mask, keys } = this;
    const { codes, starts } = keys;
    const from = starts[member]!;
    const to = starts[member + 1]!;
    if (to - from > this.longest) this.longest = to - from;
    for (let at = hashCodes(codes, from, to) & mask; ; at = (at + 1) & mask) {
      const held = slots[at]!;
      if (held === 0) {
        slots[at] = member + 1;
        return;
      }
      if (sameKey(keys, held - 1, from, to)) {
        const key = keys.stringAt(member);
        const claimants = this.shared.get(key);
        if (claimants === undefined) this.shared.set(key, [held - 1, member]);
        else claimants.push(member);
        this.sharing[held - 1] = 1;
        this.sharing[member] = 1;
        return;
      }
    }
  }

  /** The one member that normalises to `key`, `AMBIGUOUS` when several do, or undefined. */
  get(key: string): number | undefined {
    const { slots, mask, keys } = this;
    if (key.length > this.longest) return undefined;
    for (let at = hashString(key) & mask; ; at = (at + 1) & mask) {
      const held = slots[at]!;
      if (held === 0) return undefined;
      if (keys.equals(held - 1, key)) return this.sharing[held - 1] === 1 ? AMBIGUOUS : held - 1;
    }
  }

  /** Whether another member normalises like `member`. */
  isShared(member: number): boolean {
    return this.sharing[member] === 1;
  }

  /** The members that normalise to `key`, ascending, when two or more do. */
  claimants(key: string): readonly number[] | undefined {
    return this.shared.get(key);
  }
}

/** Whether member `member`'s key is the code units `codes[from, to)` of the same table. */
function sameKey(keys: PackedStrings, member: number, from: number, to: number): boolean {
  const { codes, starts } = keys;
  const start = starts[member]!;
  if (starts[member + 1]! - start !== to - from) return false;
  for (let k = 0; k < to - from; k++) {
    if (codes[start + k] !== codes[from + k]) return false;
  }
  return true;
}
