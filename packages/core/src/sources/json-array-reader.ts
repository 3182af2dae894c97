/**
 * `JSON.parse` of a body that is a JSON array, done piece by piece as the body
 * arrives, so that a large list is never parsed in one turn of the event loop
 * (one `JSON.parse` of a million ids is past the stall bar: docs/decisions/0012).
 *
 * Each piece of text is scanned for the commas that separate the array's
 * elements (outside strings, at the array's own depth); the complete elements
 * are parsed with `JSON.parse('[' + elements + ']')` at once, the rest waits
 * for the next piece. The result is exactly `JSON.parse(text)`: the text is
 * cut into groups, each group must parse as a non-empty list of elements, and
 * the groups joined with commas inside `[` `]` (JSON whitespace around) are
 * the whole text, which is then a valid JSON array whose elements are the
 * groups' elements in order. Whether the scan understood the text correctly
 * does not matter for that argument; when anything does not fit (the body is
 * not an array, a group does not parse, the text is cut short), `result()`
 * answers `undefined` and the caller runs `JSON.parse` on the whole text,
 * which then answers, or fails, as it always would.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Only these four are whitespace to JSON. */
const JSON_SPACE = /^[ \t\n\r]*$/;

type State = 'before' | 'inside' | 'after' | 'failed';

export class JsonArrayReader {
  private state: State = 'before';
  /** Text after the opening bracket not yet parsed: elements cut short. */
  private pending = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Whether a group has been parsed (an empty last group is then a trailing comma). */
  private cut = false;
  private readonly values: unknown[] = [];

  /**
   * @param onElements given, each group of parsed elements goes to it as soon
   *   as it parses, and `result()` holds none of them. If the reader then
   *   fails, what it handed over was not the body's elements: discard it.
   */
  constructor(
    private readonly onElements: (elements: unknown[]) => void = (elements) => {
      for (const value of elements) this.values.push(value);
    },
  ) {}

  /** Feed the next piece of the text. */
  push(piece: string): void {
    if (this.state === 'before') {
      let i = 0;
      while (i < piece.length && isSpace(piece.charCodeAt(i))) i++;
      if (i === piece.length) return;
      if (piece.charCodeAt(i) !== OPEN_ARRAY) return this.fail();
      this.state = 'inside';
      this.depth = 1;
      piece = piece.slice(i + 1);
    }
    if (this.state === 'after') {
      if (!JSON_SPACE.test(piece)) this.fail();
      return;
    }
    if (this.state !== 'inside') return;

    const base = this.pending.length;
    let { depth, inString, escaped } = this;
    let lastComma = -1;
    let close = -1;
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) {
        inString = true;
      } else if (c === COMMA) {
        if (depth === 1) lastComma = i;
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        depth++;
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        if (--depth === 0) {
          close = i;
          break;
        }
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;

    if (close >= 0) {
      // The array closes here: what is before is the last group, what is after must be space.
      if (piece.charCodeAt(close) !== CLOSE_ARRAY) return this.fail();
      const text = this.pending + piece.slice(0, close);
      const last = lastComma >= 0 ? base + lastComma : -1;
      if (last >= 0 && !this.parseGroup(text.slice(0, last))) return;
      const group = text.slice(last + 1);
      this.pending = '';
      if (this.cut || !JSON_SPACE.test(group)) {
        if (!this.parseGroup(group)) return;
      }
      this.state = 'after';
      if (!JSON_SPACE.test(piece.slice(close + 1))) this.fail();
      return;
    }
    if (lastComma < 0) {
      this.pending += piece;
      return;
    }
    const text = this.pending + piece;
    if (!this.parseGroup(text.slice(0, base + lastComma))) return;
    this.pending = text.slice(base + lastComma + 1);
  }

  /**
   * The parsed array, if the whole text was one JSON array and every piece of
   * it parsed (empty when the elements went to `onElements`); otherwise
   * `undefined` (parse the whole text instead).
   */
  result(): unknown[] | undefined {
    return this.state === 'after' ? this.values : undefined;
  }

  private parseGroup(group: string): boolean {
    let parsed: unknown[];
    try {
      // A group of only space would read as no elements and hide a stray comma.
      if (JSON_SPACE.test(group)) throw new SyntaxError('empty element');
      parsed = JSON.parse(`[${group}]`) as unknown[];
    } catch {
      this.fail();
      return false;
    }
    this.cut = true;
    this.onElements(parsed);
    return true;
  }

  private fail(): void {
    this.state = 'failed';
    this.pending = '';
    this.values.length = 0;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
