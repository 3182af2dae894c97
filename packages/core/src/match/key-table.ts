/**
 * Normalised key → member, without a `Map`: an open-addressing hash table of
 * member numbers in one typed array, over the array of normalised members the
 * near-miss index keeps anyway.
 *
 * A `Map` from a million keys held a million entries of pointers for the
 * garbage collector to trace at every major collection, and grew by rehashing
 * every key at once. This table holds numbers only, is sized once, and finds a
 * key by hashing it and comparing it with the normalised member in the slots
 * it probes. (With it, and with no index of case folds, a compiled
 * 1,000,000-member set retains 265 instead of 335 MiB, and a full collection
 * of it took 147 instead of 172 ms.) Keys claimed by two or more members are
 * rare; their claimants are kept in a small map beside it.
 */
import { AMBIGUOUS } from './match-tables.js';

/** Slots per key, at least: lookups of absent keys stop at an empty slot soon. */
const LOAD = 2;

/** FNV-1a over UTF-16 code units. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

export class KeyTable {
  /** Member number + 1 per slot; 0 is empty. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Every claimant of a key two or more members claim, ascending. */
  private readonly shared = new Map<string, number[]>();

  /** @param keys the normalised member at each member number */
  constructor(private readonly keys: readonly string[]) {
    let size = 16;
    while (size < keys.length * LOAD) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
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

  /** Record that member `member` normalises to `keys[member]`; members are claimed in order. */
  claim(member: number): void {
    const key = this.keys[member]!;
    const { slots, mask, keys } = this;
    for (let at = hashOf(key) & mask; ; at = (at + 1) & mask) {
      const held = slots[at]!;
      if (held === 0) {
        slots[at] = member + 1;
        return;
      }
      if (keys[held - 1] === key) {
        const claimants = this.shared.get(key);
        if (claimants === undefined) this.shared.set(key, [held - 1, member]);
        else claimants.push(member);
        return;
      }
    }
  }

  /** The one member that normalises to `key`, `AMBIGUOUS` when several do, or undefined. */
  get(key: string): number | undefined {
    const { slots, mask, keys } = this;
    for (let at = hashOf(key) & mask; ; at = (at + 1) & mask) {
      const held = slots[at]!;
      if (held === 0) return undefined;
      if (keys[held - 1] === key) return this.shared.has(key) ? AMBIGUOUS : held - 1;
    }
  }

  /** Whether two or more members normalise to `key`. */
  isShared(key: string): boolean {
    return this.shared.has(key);
  }

  /** The members that normalise to `key`, ascending, when two or more do. */
  claimants(key: string): readonly number[] | undefined {
    return this.shared.get(key);
  }
}
