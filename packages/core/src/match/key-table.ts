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
 *
 * Each slot also carries the top 8 bits of its key's hash (below 16,777,215
 * members, which leaves 24 bits for the member number), so a probe compares
 * the strings only when those agree: a lookup of an absent key, which every
 * mismatch makes, then reads the slots and rarely a member's code units at
 * another place in memory.
 */
import { AMBIGUOUS } from './match-tables.js';
import { hashCodes, hashString, type PackedStrings } from './packed-strings.js';

/** Slots per key, at least: lookups of absent keys stop at an empty slot soon. */
const LOAD = 2;

/** Tables of fewer members keep hash bits in their slots (see above). */
const TAGGED_BELOW = 0xffffff;
const TAG = 0xff000000 | 0;
const MEMBER = 0x00ffffff;

export class KeyTable {
  /** Member number + 1 per slot, under the tag bits; 0 is empty. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** The bits of a slot that hold hash bits, and those that hold the member number + 1. */
  private readonly tagBits: number;
  private readonly memberBits: number;
  /** Every claimant of a key two or more members claim, ascending. */
  private readonly shared = new Map<string, number[]>();
  /** 1 for each member whose key another member claims too. */
  private readonly sharing: Uint8Array;
  /** The longest key claimed: a longer one is answered without hashing it. */
  private longest = 0;

  /**
   * @param keys the normalised member at each member number
   * @param tagged whether slots carry hash bits (the default for every set
   *   small enough; tests turn it off to check the other way)
   */
  constructor(
    private readonly keys: PackedStrings,
    tagged = keys.count < TAGGED_BELOW,
  ) {
    let size = 16;
    while (size < keys.count * LOAD) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    this.sharing = new Uint8Array(keys.count);
    this.tagBits = tagged ? TAG : 0;
    this.memberBits = tagged ? MEMBER : -1;
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
    const { slots, mask, keys, tagBits, memberBits } = this;
    const { codes, starts } = keys;
    const from = starts[member]!;
    const to = starts[member + 1]!;
    if (to - from > this.longest) this.longest = to - from;
    const hash = hashCodes(codes, from, to);
    const tag = hash & tagBits;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const held = slots[at]!;
      if (held === 0) {
        slots[at] = (member + 1) | tag;
        return;
      }
      if ((held & tagBits) !== tag) continue;
      const other = (held & memberBits) - 1;
      if (sameKey(keys, other, from, to)) {
        const key = keys.stringAt(member);
        const claimants = this.shared.get(key);
        if (claimants === undefined) this.shared.set(key, [other, member]);
        else claimants.push(member);
        this.sharing[other] = 1;
        this.sharing[member] = 1;
        return;
      }
    }
  }

  /** The one member that normalises to `key`, `AMBIGUOUS` when several do, or undefined. */
  get(key: string): number | undefined {
    const { slots, mask, keys, tagBits, memberBits } = this;
    if (key.length > this.longest) return undefined;
    const hash = hashString(key);
    const tag = hash & tagBits;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const held = slots[at]!;
      if (held === 0) return undefined;
      if ((held & tagBits) !== tag) continue;
      const member = (held & memberBits) - 1;
      if (keys.equals(member, key)) return this.sharing[member] === 1 ? AMBIGUOUS : member;
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
