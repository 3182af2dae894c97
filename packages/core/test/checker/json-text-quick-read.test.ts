import { expect } from 'chai';
import fc from 'fast-check';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import { createValueSetProvider } from '../../src/provider/create-value-set-provider.js';
import { staticValueSet } from '../../src/sources/static-value-set.js';
import { CHECK_MODES } from '../../src/vocabulary.js';
import type { CheckOutcome } from '../../src/types.js';
import { jsonArguments } from '../helpers/json-texts.js';

/**
 * JSON texts whose checked arguments are simple keys take the quick read
 * (`flat-json.ts`) when it reads them as the text reader does (a flat
 * object, each key written at most once as a string, no escape in the
 * text), and the text reader otherwise. Whichever reads
 * it, the outcome is the same: a checker that must use the text reader (its
 * tool has a path the quick read cannot serve) answers every text alike.
 */
describe('JSON-text arguments: the quick read and the text reader agree', () => {
  const valueSets = createValueSetProvider({
    sources: {
      reasons: staticValueSet(['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE']),
      never: staticValueSet(['x']),
    },
  });
  before(() => valueSets.ready());
  after(() => valueSets.close());

  const extra = (text: string) => [
    text,
    // The same arguments written once more without escapes, and with a repeated key.
    text.replace(/^\s*\{/, '{"reason_code":"late",'),
    '{"order_id":"o-1","reason_code":"DAMAGED"}',
    '{"reason_code":"damaged","reason_code":"LATE"}',
    '{"nested":{"reason_code":"INVENTED"},"reason_code":"LATE"}',
    '{"reason_code":42}',
    '[{"reason_code":"LATE"}]',
  ];

  /** The outcome without the extra path's findings (an unreadable text reports every path). */
  const withoutExtra = (outcome: CheckOutcome): CheckOutcome => ({
    ...outcome,
    findings: outcome.findings.filter((f) => f.argument !== 'no_such[].key'),
  });

  for (const mode of CHECK_MODES) {
    it(`${mode}: the same outcome for every text, either way it is read`, () => {
      const quick = createArgumentChecker({
        valueSets,
        mode,
        checkedArguments: { refund_order: { reason_code: 'reasons' } },
      });
      const reader = createArgumentChecker({
        valueSets,
        mode,
        checkedArguments: { refund_order: { reason_code: 'reasons', 'no_such[].key': 'never' } },
      });
      fc.assert(
        fc.property(jsonArguments, ({ text }) => {
          for (const t of extra(text)) {
            expect(quick.check('refund_order', t), JSON.stringify(t)).to.deep.equal(
              withoutExtra(reader.check('refund_order', t)),
            );
          }
        }),
        { numRuns: 1_500 },
      );
    });
  }
});
