/**
 * JSON argument texts written the many ways a JSON text can be written
 * (whitespace and newlines between tokens, escapes in keys and values,
 * numbers JSON.parse cannot round-trip, duplicate keys), with the place of
 * every string token that a checked path reaches, for property tests of the
 * JSON-string arguments path.
 */
import fc from 'fast-check';

export interface CheckedToken {
  /** Source span of the string token, quotes included. */
  start: number;
  end: number;
  /** The decoded string. */
  value: string;
}

export interface JsonArguments {
  tool: 'refund_order' | 'transfer_stock';
  text: string;
  /** In document order. */
  checkedTokens: CheckedToken[];
}

/** Literals whose value `JSON.stringify(JSON.parse(x))` does not give back. */
const NUMBERS = [
  '9007199254740993',
  '1e400',
  '-0',
  '10.10',
  '1.50E+2',
  '0',
  '-1.5e-7',
  '123456789012345678901234567890',
  '0.1e1',
];
const SPACES = ['', '', ' ', '\n', '\t', '\r\n  ', '   '];
const CHECKED_KEYS = ['reason_code', 'items', 'warehouse_code'];

/** Values near the members, so that rewrites happen, and some that are not. */
const checkedValue = fc.oneof(
  fc.constantFrom(
    'late',
    'LATE',
    ' Not-As-Described ',
    'damaged',
    'CUSTOMER_UNHAPPY',
    'charged twice',
    'ams1',
    'AMS1',
    ' Lhr-2 ',
    'ber1',
    'lat\u00e9',
    '"late"',
    '\u2028late',
    '',
  ),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
);

/** A seeded choice source, so that one generated integer drives the writing style. */
function chooser(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (Math.imul(a, 1_103_515_245) + 12_345) >>> 0;
    return (a >>> 8) % n;
  };
}

type Choose = (n: number) => number;

/** A string token: each code unit raw where JSON allows it, or escaped. */
function stringToken(s: string, choose: Choose): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const mustEscape = c < 0x20 || c === 0x22 || c === 0x5c;
    const short = { 0x22: '\\"', 0x5c: '\\\\', 0x0a: '\\n', 0x09: '\\t', 0x2f: '\\/' }[c];
    const style = mustEscape ? 1 + choose(2) : choose(4);
    if (style === 0 || style === 3) out += s[i];
    else if (style === 1 && short !== undefined) out += short;
    else {
      const hex = c.toString(16).padStart(4, '0');
      out += `\\u${choose(2) === 0 ? hex : hex.toUpperCase()}`;
    }
  }
  return `${out}"`;
}

function valueText(value: unknown, choose: Choose): string {
  const ws = () => SPACES[choose(SPACES.length)]!;
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return NUMBERS[choose(NUMBERS.length)]!;
  if (typeof value === 'string') return stringToken(value, choose);
  if (Array.isArray(value)) {
    return `[${ws()}${value.map((v) => valueText(v, choose)).join(`${ws()},${ws()}`)}${ws()}]`;
  }
  const members = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => `${stringToken(k, choose)}${ws()}:${ws()}${valueText(v, choose)}`,
  );
  return `{${ws()}${members.join(`${ws()},${ws()}`)}${ws()}}`;
}

/** Appends text and remembers where the checked string tokens went. */
class Writer {
  text = '';
  tokens: CheckedToken[] = [];
  constructor(readonly choose: Choose) {}
  ws(): void {
    this.text += SPACES[this.choose(SPACES.length)];
  }
  raw(s: string): void {
    this.text += s;
  }
  checked(value: unknown): void {
    const start = this.text.length;
    this.text += valueText(value, this.choose);
    if (typeof value === 'string') this.tokens.push({ start, end: this.text.length, value });
  }
  /** An object whose members are written by `members`, separated by commas. */
  object(members: (() => void)[]): void {
    this.raw('{');
    this.ws();
    members.forEach((write, i) => {
      if (i > 0) {
        this.ws();
        this.raw(',');
        this.ws();
      }
      write();
    });
    this.ws();
    this.raw('}');
  }
  key(name: string): void {
    this.raw(stringToken(name, this.choose));
    this.ws();
    this.raw(':');
    this.ws();
  }
}

const filler = fc
  .tuple(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }))
  .filter(([key]) => !CHECKED_KEYS.includes(key));

/** A member of an object: a filler, or the checked key with a value (maybe not a string). */
const memberSpec = (checkedKey: string) =>
  fc.oneof(
    { weight: 2, arbitrary: filler.map(([key, value]) => ({ key, value, checked: false })) },
    {
      weight: 2,
      arbitrary: checkedValue.map((value) => ({ key: checkedKey, value, checked: true })),
    },
    {
      weight: 1,
      arbitrary: fc
        .jsonValue({ maxDepth: 1 })
        .map((value) => ({ key: checkedKey, value, checked: true })),
    },
  );

type MemberSpec = { key: string; value: unknown; checked: boolean };

function writeMembers(w: Writer, specs: MemberSpec[]): (() => void)[] {
  return specs.map((spec) => () => {
    w.key(spec.key);
    if (spec.checked) w.checked(spec.value);
    else w.raw(valueText(spec.value, w.choose));
  });
}

const refundArguments = fc
  .tuple(fc.array(memberSpec('reason_code'), { maxLength: 6 }), fc.nat())
  .map(([specs, seed]): JsonArguments => {
    const w = new Writer(chooser(seed));
    w.ws();
    w.object(writeMembers(w, specs));
    w.ws();
    return { tool: 'refund_order', text: w.text, checkedTokens: w.tokens };
  });

/** An element of `items`: an object with `warehouse_code` members, or any other value. */
const item = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(memberSpec('warehouse_code'), { maxLength: 4 })
      .map((members) => ({ members })),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }).map((other) => ({ other })) },
);

/** `items` once or more (a repeated key), each an array of objects or other values. */
const transferArguments = fc
  .tuple(
    fc.array(fc.array(item, { maxLength: 4 }), { minLength: 1, maxLength: 2 }),
    fc.array(filler, { maxLength: 2 }),
    fc.nat(),
  )
  .map(([lists, fillers, seed]): JsonArguments => {
    const w = new Writer(chooser(seed));
    const members: (() => void)[] = fillers.map(([key, value]) => () => {
      w.key(key);
      w.raw(valueText(value, w.choose));
    });
    for (const list of lists) {
      members.splice(w.choose(members.length + 1), 0, () => {
        w.key('items');
        w.raw('[');
        list.forEach((element, i) => {
          if (i > 0) w.raw(',');
          w.ws();
          if ('members' in element) w.object(writeMembers(w, element.members));
          else w.raw(valueText(element.other, w.choose));
        });
        w.raw(']');
      });
    }
    w.object(members);
    return { tool: 'transfer_stock', text: w.text, checkedTokens: w.tokens };
  });

export const jsonArguments: fc.Arbitrary<JsonArguments> = fc.oneof(
  refundArguments,
  transferArguments,
);
