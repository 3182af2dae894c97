/**
 * Deterministic catalogue-style ids (`CMP-Brake-Caliper-00417`) for large-set
 * tests and the match-scale benchmark: a category prefix, one or two part
 * words, a five-digit number; separators and letter case vary by id the way
 * they do across the owners of real catalogues.
 */

const PREFIXES = ['CMP', 'ASM', 'PRT', 'SUB', 'KIT', 'SVC', 'WH', 'SKU', 'FRU', 'MOD'];
const WORDS = (
  'Brake Caliper Rotor Pad Hose Valve Pump Filter Sensor Bracket Housing Gasket Seal ' +
  'Bearing Shaft Gear Spring Clamp Bolt Nut Washer Cable Harness Relay Switch Module ' +
  'Panel Cover Mount Arm Link Bushing Strut Shock Axle Hub Wheel Lamp Mirror Door Hinge ' +
  'Latch Lock Handle Seat Belt Tensioner Pulley Radiator Fan Thermostat Injector Coil ' +
  'Plug Manifold Exhaust Muffler Catalyst Turbo Intercooler Piston Ring Camshaft ' +
  'Crankshaft Flywheel Clutch Differential Driveshaft Joint Boot Rack Pinion Column ' +
  'Wiper Blade Motor Nozzle Tank Cap Line Fitting Duct'
).split(' ');

/** A seeded pseudo-random source in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct ids, no two alike after normalisation. */
export function realisticIds(count: number, seed = 1): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const seen = new Set<string>();
  const ids: string[] = [];
  while (ids.length < count) {
    const parts = [pick(PREFIXES), pick(WORDS)];
    if (random() < 0.6) parts.push(pick(WORDS));
    parts.push(String(Math.floor(random() * 100_000)).padStart(5, '0'));
    const key = parts.join(' ').toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const style = random();
    if (style < 0.6) ids.push(parts.join('-'));
    else if (style < 0.8) ids.push(parts.join('_').toUpperCase());
    else if (style < 0.9) ids.push(parts.join('-').toLowerCase());
    else ids.push(parts.join('.'));
  }
  return ids;
}

/** One random edit (substitute, delete, insert, swap neighbours) somewhere in `s`. */
export function typo(s: string, random: () => number): string {
  const at = Math.floor(random() * s.length);
  const letter = String.fromCharCode(97 + Math.floor(random() * 26));
  switch (Math.floor(random() * 4)) {
    case 0:
      return s.slice(0, at) + letter + s.slice(at + 1);
    case 1:
      return s.slice(0, at) + s.slice(at + 1);
    case 2:
      return s.slice(0, at) + letter + s.slice(at);
    default:
      return at + 1 < s.length
        ? s.slice(0, at) + s[at + 1]! + s[at]! + s.slice(at + 2)
        : s + letter;
  }
}
