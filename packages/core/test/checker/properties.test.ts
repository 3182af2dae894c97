import { expect } from 'chai';
import fc from 'fast-check';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import type { CheckMode } from '../../src/types.js';
import { deepFreeze, fixedProvider, REFUND_CODES } from '../helpers/fixed-provider.js';
import { recordFigure } from '@argcheck/testing/figures';

const SHAPES = ['case', 'format', 'alias', 'near_miss', 'invented', 'not_string'];
const valueSets = fixedProvider({
  'refunds.reason_codes': REFUND_CODES,
  'wms.warehouses': ['AMS1', 'BER1', 'LHR2', 'constructor'],
});
const checkers = (['observe', 'normalise', 'reject'] as CheckMode[]).map((mode) =>
  createArgumentChecker({
    valueSets,
    mode,
    checkedArguments: {
      refund_order: { reason_code: 'refunds.reason_codes' },
      transfer_stock: { 'items[].warehouse_code': 'wms.warehouses' },
    },
  }),
);

// Values near the members make the interesting shapes likely, not just `invented`.
const nearMember = fc
  .tuple(
    fc.constantFrom('DAMAGED', 'late', ' Not-As-Described ', 'charged twice', 'AMS1', 'ams1'),
    fc.string({ maxLength: 2 }),
  )
  .map(([a, b]) => a + b);
const argValue = fc.oneof(fc.jsonValue(), nearMember, fc.string({ unit: 'grapheme' }));
const args = fc.oneof(
  fc.jsonValue(),
  fc.record({ reason_code: argValue }),
  fc.record({ items: fc.array(fc.record({ warehouse_code: argValue }), { maxLength: 4 }) }),
  fc.record({ reason_code: argValue }).map((a) => JSON.stringify(a)),
);

describe('check(): properties', () => {
  it('never throws, never mutates, and every mismatch has exactly one shape', () => {
    let checks = 0;
    const shapes: Record<string, number> = {};
    fc.assert(
      fc.property(args, fc.constantFrom('refund_order', 'transfer_stock', 'other'), (a, tool) => {
        const frozen = deepFreeze(structuredClone(a));
        for (const checker of checkers) {
          const outcome = checker.check(tool, frozen);
          checks += 1;
          expect(outcome.tool).to.equal(tool);
          expect(frozen).to.deep.equal(a);
          for (const f of outcome.findings) {
            if (f.status !== 'checked') continue;
            if (f.inSet) {
              expect(f.inSetNormalised).to.equal(true);
              expect(f.shape).to.equal(undefined);
            } else {
              expect(SHAPES).to.include(f.shape);
              expect(f.inSetNormalised).to.equal(f.shape === 'case' || f.shape === 'format');
              shapes[f.shape ?? ''] = (shapes[f.shape ?? ''] ?? 0) + 1;
            }
          }
          if (outcome.action === 'reject') expect(outcome.repairMessage).to.be.a('string');
          else expect(outcome.repairMessage).to.equal(undefined);
        }
      }),
      { numRuns: 2_000 },
    );
    const mismatches = SHAPES.filter((s) => shapes[s]).map(
      (s) => `${(shapes[s] ?? 0).toLocaleString('en-US')} \`${s}\``,
    );
    recordFigure(
      'random-argument-trees',
      `${checks.toLocaleString('en-US')} checks of generated argument trees and JSON texts (fast-check, 2,000 runs × 3 modes): none threw or changed its frozen input; every mismatch one shape: ${mismatches.join(', ')}`,
    );
  });
});
