// Deterministic, realistic member ids for large value sets, from five
// families an owner might publish: catalogue components (`CMP-Brake-Caliper-00417`),
// SKUs (`SKU_4431_XL_BLK`), user handles (`amira.okafor42`), warehouse bins
// (`AMS1-B07-s03`) and service ids (`payments-ledger-api-v2`). Letter case,
// separators and digits vary the way they do between real owners. No two ids
// are alike after case folding and separator unification, so a set of n ids
// has n members and no normalisation collisions.

export type Random = () => number;

/**
 * A seeded pseudo-random source in [0, 1) (mulberry32). The same function as
 * the core tests' `seededRandom`, so seeds give the same ids and values.
 */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One random edit (substitute, delete, insert, swap neighbours) somewhere in `s`. */
export function typo(s: string, random: Random): string {
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
        ? s.slice(0, at) + (s[at + 1] ?? '') + (s[at] ?? '') + s.slice(at + 2)
        : s + letter;
  }
}

/** One element of a non-empty list. */
export function pick<T>(random: Random, list: readonly T[]): T {
  const item = list[Math.floor(random() * list.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

// prettier-ignore
const WORDS = (
  'Brake Caliper Rotor Pad Hose Valve Pump Filter Sensor Bracket Housing Gasket Seal Bearing ' +
  'Shaft Gear Spring Clamp Bolt Washer Cable Harness Relay Switch Module Panel Cover Mount Arm ' +
  'Link Bushing Strut Shock Axle Hub Wheel Lamp Mirror Door Hinge Latch Lock Handle Seat Belt ' +
  'Pulley Radiator Fan Injector Coil Plug Manifold Muffler Turbo Piston Ring Camshaft Clutch ' +
  'Joint Boot Rack Pinion Column Wiper Blade Motor Nozzle Tank Cap Line Fitting Duct'
).split(' ');
const PREFIXES = ['CMP', 'ASM', 'PRT', 'SUB', 'KIT', 'FRU', 'MOD'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const COLOURS = ['BLK', 'WHT', 'RED', 'BLU', 'GRN', 'GRY', 'NVY', 'TAN'];
// prettier-ignore
const FIRST = ['amira', 'bruno', 'chen', 'dalia', 'emeka', 'fatima', 'goran', 'hana', 'ivan',
  'jonas', 'kemal', 'lena', 'mateo', 'nadia', 'omar', 'priya', 'rosa', 'sven', 'tariq', 'vera'];
// prettier-ignore
const LAST = ['okafor', 'silva', 'nakamura', 'haddad', 'kowalski', 'mensah', 'petrov', 'garcia',
  'lindqvist', 'tanaka', 'osei', 'novak', 'fischer', 'moreau', 'rossi', 'dubois', 'ahmed'];
const SITES = ['AMS1', 'AMS2', 'CDG1', 'DUB1', 'FRA1', 'FRA2', 'LHR1', 'MAD1', 'MXP1', 'WAW1'];
// prettier-ignore
const DOMAINS = ['payments', 'checkout', 'search', 'catalog', 'identity', 'shipping', 'returns',
  'inventory', 'pricing', 'billing', 'loyalty', 'fraud', 'ledger', 'orders', 'media'];
// prettier-ignore
const PARTS = ['core', 'gateway', 'scheduler', 'indexer', 'importer', 'router', 'cache', 'store',
  'events', 'webhooks', 'settlement', 'quotes', 'rules', 'sync', 'audit', 'feeds', 'ranker'];
const KINDS = ['api', 'worker', 'web', 'job', 'db', 'stream'];

const digits = (random: Random, n: number): string =>
  String(Math.floor(random() * 10 ** n)).padStart(n, '0');

function makeId(random: Random): string {
  const family = random();
  if (family < 0.4) {
    const words = [pick(random, WORDS)];
    if (random() < 0.6) words.push(pick(random, WORDS));
    const parts = [pick(random, PREFIXES), ...words, digits(random, 5)];
    const style = random();
    if (style < 0.6) return parts.join('-');
    if (style < 0.8) return parts.join('_').toUpperCase();
    return parts.join('.').toLowerCase();
  }
  if (family < 0.6) {
    const sku = digits(random, 4 + Math.floor(random() * 3));
    return ['SKU', sku, pick(random, SIZES), pick(random, COLOURS)].join('_');
  }
  if (family < 0.8) {
    const sep = random() < 0.7 ? '.' : '_';
    return `${pick(random, FIRST)}${sep}${pick(random, LAST)}${Math.floor(random() * 1000)}`;
  }
  if (family < 0.9) {
    const site = pick(random, SITES);
    const bin = `B${digits(random, 2)}`;
    const shelf = `s${digits(random, 3)}`;
    return random() < 0.5 ? `${site}-${bin}-${shelf}` : `${site}/${bin}/${shelf.toUpperCase()}`;
  }
  const version = random() < 0.5 ? `-v${1 + Math.floor(random() * 9)}` : '';
  return `${pick(random, DOMAINS)}-${pick(random, PARTS)}-${pick(random, KINDS)}-${digits(random, 3)}${version}`;
}

/** Case folded, separators unified: ids equal under this key would collide. */
const key = (id: string): string => id.toLowerCase().replace(/[\s\-_./]+/g, ' ');

/** `count` distinct ids, no two alike after case folding and separator unification. */
export function realisticIds(count: number, seed = 1): string[] {
  const random = seededRandom(seed);
  const seen = new Set<string>();
  const ids: string[] = [];
  while (ids.length < count) {
    const id = makeId(random);
    const k = key(id);
    if (seen.has(k)) continue;
    seen.add(k);
    ids.push(id);
  }
  return ids;
}

/** Words a model makes up, in the shapes ids have. */
export function inventedValue(random: Random): string {
  const word = (): string =>
    Array.from({ length: 4 + Math.floor(random() * 7) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join('');
  switch (Math.floor(random() * 4)) {
    case 0:
      return `${word()}_${word()}`.toUpperCase();
    case 1:
      return `CMP-${word()}-${word()}-${digits(random, 5)}`;
    case 2:
      return `${word()}.${word()}${Math.floor(random() * 100)}`;
    default:
      return `${word()}-${word()}-service`;
  }
}

const CATALOGUE_PREFIXES = ['CMP', 'ASM', 'PRT', 'SUB', 'KIT', 'SVC', 'WH', 'SKU', 'FRU', 'MOD'];
// prettier-ignore
const CATALOGUE_WORDS = (
  'Brake Caliper Rotor Pad Hose Valve Pump Filter Sensor Bracket Housing Gasket Seal ' +
  'Bearing Shaft Gear Spring Clamp Bolt Nut Washer Cable Harness Relay Switch Module ' +
  'Panel Cover Mount Arm Link Bushing Strut Shock Axle Hub Wheel Lamp Mirror Door Hinge ' +
  'Latch Lock Handle Seat Belt Tensioner Pulley Radiator Fan Thermostat Injector Coil ' +
  'Plug Manifold Exhaust Muffler Catalyst Turbo Intercooler Piston Ring Camshaft ' +
  'Crankshaft Flywheel Clutch Differential Driveshaft Joint Boot Rack Pinion Column ' +
  'Wiper Blade Motor Nozzle Tank Cap Line Fitting Duct'
).split(' ');

/**
 * `count` distinct catalogue-style ids of one family (`CMP-Brake-Caliper-00417`),
 * no two alike after normalisation: the ids the match index's cost constants
 * were swept on (match-scale.ts).
 */
export function catalogueIds(count: number, seed = 1): string[] {
  const random = seededRandom(seed);
  const seen = new Set<string>();
  const ids: string[] = [];
  while (ids.length < count) {
    const parts = [pick(random, CATALOGUE_PREFIXES), pick(random, CATALOGUE_WORDS)];
    if (random() < 0.6) parts.push(pick(random, CATALOGUE_WORDS));
    parts.push(String(Math.floor(random() * 100_000)).padStart(5, '0'));
    const k = parts.join(' ').toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    const style = random();
    if (style < 0.6) ids.push(parts.join('-'));
    else if (style < 0.8) ids.push(parts.join('_').toUpperCase());
    else if (style < 0.9) ids.push(parts.join('-').toLowerCase());
    else ids.push(parts.join('.'));
  }
  return ids;
}
