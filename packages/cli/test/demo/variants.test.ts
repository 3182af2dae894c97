import type { MismatchShape } from '@argcheck/core';
import { expect } from 'chai';
import { mulberry32 } from '../../src/demo/prng.js';
import {
  activeHandles,
  componentIds,
  LABELLED_REASON_CODES,
  REASON_CODES,
  WAREHOUSES,
} from '../../src/demo/value-set-data.js';
import { variant, type ValueKind } from '../../src/demo/variants.js';
import { demoChecker } from '../helpers/demo-checker.js';

/** Where each kind of value goes in a call, to let the real checker classify it. */
function callWith(kind: ValueKind, value: unknown): [string, Record<string, unknown>] {
  switch (kind) {
    case 'reason_code':
      return ['refund_order', { order_id: 'ORD-1', reason_code: value }];
    case 'component':
      return [
        'create_ticket',
        { summary: 's', component_id: value, assignee: activeHandles(1)[0] },
      ];
    case 'handle':
      return ['create_ticket', { summary: 's', component_id: componentIds(1)[0], assignee: value }];
    case 'warehouse':
      return ['transfer_stock', { items: [{ sku: 'SKU-1', warehouse_code: value, qty: 1 }] }];
  }
}

const MEMBERS: Record<ValueKind, readonly string[]> = {
  reason_code: ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE', 'WRONG_ITEM'],
  component: componentIds(1).slice(0, 50),
  handle: activeHandles(1).slice(0, 50),
  warehouse: WAREHOUSES,
};

describe('demo mismatch variants', () => {
  // The demo's shape mix is only the story if the check sees the shapes the agent meant.
  const cases: [ValueKind, MismatchShape[]][] = [
    ['reason_code', ['case', 'format', 'alias', 'near_miss', 'invented', 'not_string']],
    ['component', ['case', 'format', 'near_miss', 'invented']],
    ['handle', ['case', 'format', 'near_miss', 'invented']],
    ['warehouse', ['case', 'format', 'near_miss', 'invented']],
  ];
  for (const [kind, shapes] of cases) {
    it(`are classified by the checker as the shape they were made as: ${kind}`, async () => {
      const { checker, close } = await demoChecker();
      const random = mulberry32(42);
      const wrong: string[] = [];
      for (const shape of shapes) {
        for (let i = 0; i < 40; i += 1) {
          // The agent only writes an owner's label for a member that has one.
          const members = shape === 'alias' ? LABELLED_REASON_CODES : MEMBERS[kind];
          const meant = members[i % members.length] as string;
          const aliases = REASON_CODES.find((e) => e.value === meant)?.aliases;
          const value = variant(random, kind, shape, meant, aliases);
          const [tool, args] = callWith(kind, value);
          const finding = checker.check(tool, args).findings.find((f) => f.value === value);
          const seen = finding?.status === 'checked' ? (finding.shape ?? 'member') : 'none';
          if (seen !== shape) wrong.push(`${shape} ${JSON.stringify(value)} → ${seen}`);
        }
      }
      close();
      expect(wrong).to.deep.equal([]);
    });
  }
});
