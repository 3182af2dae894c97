/**
 * Public types of `@argcheck/cli`: the figures `argcheck report` computes,
 * exactly as `--format json` prints them.
 */

/** One emitted value of one argument. */
export interface ValueRow {
  /** The emitted value as logged (truncated by the instrumentation, and here at 256 characters). */
  value: string;
  count: number;
  /** How many of `count` were members of the set when checked (a set can change mid-file). */
  inSetCount: number;
  /** The mismatch shape of the out-of-set occurrences; absent for members. */
  shape?: string;
}

/** One mismatch shape's slice of one argument's mismatches. */
export interface ShapeRow {
  shape: string;
  count: number;
  /** count / mismatches: the rows of one argument sum to 1. */
  shareOfMismatches: number;
  /** count / checked records: this shape's contribution to the out-of-set rate. */
  shareOfCalls: number;
}

/** Everything the report says about one tool argument checked against one set. */
export interface ArgumentReport {
  tool: string;
  argument: string;
  set: string;
  /** With `--by`: the attribution attribute and the value these figures are for. */
  by?: { attribute: string; value: string };
  /** Records whose check ran (`in_set` is `true` or `false`). */
  records: number;
  /** Records that carry no usable `in_set`; excluded from every rate. */
  unchecked: number;
  outOfSet: number;
  outOfSetNormalised: number;
  /** outOfSet / records, in [0, 1]; 0 when there are no records. */
  outOfSetRate: number;
  /** outOfSetNormalised / records. */
  normalisedRate: number;
  /** outOfSetRate − normalisedRate: what case and format variants cost. */
  formattingTax: number;
  /** Distinct values kept (at most the cap). */
  distinctValues: number;
  /**
   * The top values: those out of the set at least once first, then members;
   * each group by count, then by value. With `--mismatches`, out-of-set
   * values only.
   */
  values: ValueRow[];
  /** Records whose value is kept but not among the rows shown. */
  valuesNotShown: number;
  /** Records whose value arrived after the distinct-value cap was reached. */
  valuesOverCap: number;
  /** Records without a `value` attribute (capture off). */
  valuesNotCaptured: number;
  shapes: ShapeRow[];
}

/** Counts about the input itself. */
export interface InputSummary {
  files: string[];
  /** Files that could not be opened or read to the end. */
  unreadableFiles: string[];
  lines: number;
  corruptLines: number;
  /** Log records that are not argument checks (other events, other attributes). */
  ignoredRecords: number;
  /** Check records dropped because the tool/argument/set cap was reached. */
  recordsOverSeriesCap: number;
}

export interface Report {
  input: InputSummary;
  arguments: ArgumentReport[];
  /** Which description each `tool_definition` value stands for, from its records (at most 1,000). */
  definitions?: { tool: string; toolDefinition: string; description: string }[];
}

export type ReportFormat = 'text' | 'markdown' | 'json';
