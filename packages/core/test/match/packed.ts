import { writeSignature } from '../../src/match/char-signature.js';
import { boundedOsaDistance } from '../../src/match/edit-distance.js';
import { PackedStrings } from '../../src/match/packed-strings.js';

/** `boundedOsaDistance` of two strings, packed side by side. */
export function boundedDistance(a: string, b: string, bound: number): number {
  const { codes, starts } = PackedStrings.of([a, b]);
  return boundedOsaDistance(codes, starts[0]!, starts[1]!, codes, starts[1]!, starts[2]!, bound);
}

/** `writeSignature` of a string. */
export function signatureOf(s: string, out: Int32Array, at: number): void {
  const { codes, starts } = PackedStrings.of([s]);
  writeSignature(codes, starts[0]!, starts[1]!, out, at);
}
