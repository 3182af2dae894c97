// Deterministic, realistic member ids for large value sets, from five
// families an owner might publish: catalogue components (`CMP-Brake-Caliper-00417`),
// SKUs (`SKU_4431_XL_BLK`), user handles (`amira.okafor42`), warehouse bins
// (`AMS1-B07-s03`) and service ids (`payments-ledger-api-v2`). Letter case,
// separators and digits vary the way they do between real owners. No two ids
// are alike after case folding and separator unification, so a set of n ids
// has n members and no normalisation collisions.

// The seeded random source and the typo maker are the core tests' own.
import { seededRandom } from '../../packages/core/build/test/match/realistic-ids.js';

export { seededRandom, typo } from '../../packages/core/build/test/match/realistic-ids.js';

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

const digits = (random, n) => String(Math.floor(random() * 10 ** n)).padStart(n, '0');

function makeId(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const family = random();
  if (family < 0.4) {
    const words = [pick(WORDS)];
    if (random() < 0.6) words.push(pick(WORDS));
    const parts = [pick(PREFIXES), ...words, digits(random, 5)];
    const style = random();
    if (style < 0.6) return parts.join('-');
    if (style < 0.8) return parts.join('_').toUpperCase();
    return parts.join('.').toLowerCase();
  }
  if (family < 0.6) {
    return ['SKU', digits(random, 4 + Math.floor(random() * 3)), pick(SIZES), pick(COLOURS)].join(
      '_',
    );
  }
  if (family < 0.8) {
    const sep = random() < 0.7 ? '.' : '_';
    return `${pick(FIRST)}${sep}${pick(LAST)}${Math.floor(random() * 1000)}`;
  }
  if (family < 0.9) {
    const site = pick(SITES);
    const bin = `B${digits(random, 2)}`;
    const shelf = `s${digits(random, 3)}`;
    return random() < 0.5 ? `${site}-${bin}-${shelf}` : `${site}/${bin}/${shelf.toUpperCase()}`;
  }
  const version = random() < 0.5 ? `-v${1 + Math.floor(random() * 9)}` : '';
  return `${pick(DOMAINS)}-${pick(PARTS)}-${pick(KINDS)}-${digits(random, 3)}${version}`;
}

/** Case folded, separators unified: ids equal under this key would collide. */
const key = (id) => id.toLowerCase().replace(/[\s\-_./]+/g, ' ');

/** `count` distinct ids, no two alike after case folding and separator unification. */
export function realisticIds(count, seed = 1) {
  const random = seededRandom(seed);
  const seen = new Set();
  const ids = [];
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
export function inventedValue(random) {
  const word = () =>
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
