import { expect } from 'chai';
import {
  createArgumentChecker,
  createValueSetProvider,
  functionValueSet,
  staticValueSet,
} from '@argcheck/core';
import type { ValueSetProvider } from '@argcheck/core';
import { inSetOutcome, inSetPlan } from '../../src/engine/in-set-call.js';
import type { InSetArgument } from '../../src/engine/in-set-call.js';
import type { ToolEntry } from '../../src/telemetry/series.js';

/** A series table entry as far as a plan reads it: the tool's argument series. */
function entryOf(series: { argument: string; set: string }[]): ToolEntry {
  return {
    series: undefined,
    list: series,
    byArgument: undefined,
    calls: [],
  } as unknown as ToolEntry;
}

const CHECKED = {
  refund_order: { reason_code: 'codes', region: 'regions', channel: 'pending' },
};

describe('in-set calls: the core checker’s outcome, without its general path', () => {
  let provider: ValueSetProvider;
  let plan: readonly InSetArgument[];

  before(async () => {
    provider = createValueSetProvider({
      sources: {
        codes: staticValueSet(['DAMAGED', 'LATE']),
        regions: staticValueSet(['EU', 'US']),
        // Its owner is down: unavailable.
        pending: functionValueSet(() => {
          throw new Error('owner down');
        }),
      },
    });
    await provider.ready();
    expect(provider.get('codes').state).to.not.equal('unavailable');
    expect(provider.get('pending').state).to.equal('unavailable');
    const made = inSetPlan(
      { checkedArguments: CHECKED, valueSets: provider },
      'refund_order',
      entryOf([
        { argument: 'reason_code', set: 'codes' },
        { argument: 'region', set: 'regions' },
        { argument: 'channel', set: 'pending' },
      ]),
    );
    expect(made?.map(({ key, set }) => ({ key, set }))).to.deep.equal([
      { key: 'reason_code', set: 'codes' },
      { key: 'region', set: 'regions' },
      { key: 'channel', set: 'pending' },
    ]);
    plan = made as readonly InSetArgument[];
  });

  after(() => provider.close());

  for (const mismatches of [false, true]) {
    it(`gives the outcome the core gives every call it answers, and leaves every other call to the core (${mismatches ? 'observe: with' : 'without'} values out of their sets)`, () => {
      const core = createArgumentChecker({
        valueSets: provider,
        checkedArguments: CHECKED,
        mode: 'observe',
      });
      const inherited = Object.create({ reason_code: 'DAMAGED' }) as object;
      // `observe`: answered only when values out of their sets are.
      const cases: { args: object; answered: boolean | 'observe' }[] = [
        { args: { reason_code: 'DAMAGED' }, answered: true },
        { args: { reason_code: 'LATE', region: 'EU', order_id: 'o-1' }, answered: true },
        { args: { region: 'US', reason_code: 'DAMAGED' }, answered: true },
        { args: { reason_code: 'damaged' }, answered: 'observe' },
        { args: { reason_code: ' Late ' }, answered: 'observe' },
        { args: { reason_code: 'LAET' }, answered: 'observe' },
        { args: { reason_code: 'CUSTOMER_UNHAPPY', region: 'eu' }, answered: 'observe' },
        { args: { reason_code: 'DAMAGED', region: 'ASIA' }, answered: 'observe' },
        { args: { reason_code: 7 }, answered: false },
        { args: { reason_code: 'damaged', region: 7 }, answered: false },
        { args: { reason_code: null }, answered: false },
        { args: { reason_code: 'DAMAGED', channel: 'web' }, answered: false },
        { args: { reason_code: 'damaged', channel: 'web' }, answered: false },
        { args: { order_id: 'o-1' }, answered: false },
        { args: {}, answered: false },
        { args: inherited, answered: false },
        { args: ['DAMAGED'], answered: false },
      ];
      for (const { args, answered } of cases) {
        const outcome = inSetOutcome(provider, plan, 'refund_order', args, mismatches);
        const expected = answered === 'observe' ? mismatches : answered;
        expect(outcome !== undefined, JSON.stringify(args)).to.equal(expected);
        if (outcome !== undefined) {
          expect(outcome).to.deep.equal(core.check('refund_order', args));
          expect(outcome.args).to.equal(args);
        }
      }
    });
  }

  it('leaves arguments whose reading throws to the core, which fails open', () => {
    const args = {
      get reason_code(): string {
        throw new Error('hostile');
      },
    };
    expect(inSetOutcome(provider, plan, 'refund_order', args)).to.equal(undefined);
  });

  it('makes no plan for a tool with a deeper path, or an argument without its series', () => {
    const inputs = {
      checkedArguments: {
        nested: { 'filters.status': 'codes' },
        listed: { 'items[].code': 'codes' },
        flat: { reason_code: 'codes' },
      },
      valueSets: provider,
    };
    const series = (argument: string) => entryOf([{ argument, set: 'codes' }]);
    expect(inSetPlan(inputs, 'nested', series('filters.status'))).to.equal(undefined);
    expect(inSetPlan(inputs, 'listed', series('items[].code'))).to.equal(undefined);
    expect(inSetPlan(inputs, 'flat', entryOf([]))).to.equal(undefined);
    expect(
      inSetPlan(inputs, 'flat', entryOf([{ argument: 'reason_code', set: 'other' }])),
    ).to.equal(undefined);
    expect(inSetPlan(inputs, 'unknown', series('reason_code'))).to.equal(undefined);
    const flat = inSetPlan(inputs, 'flat', series('reason_code'));
    expect(
      flat?.map(({ series }) => ({ argument: series.argument, set: series.set })),
    ).to.deep.equal([{ argument: 'reason_code', set: 'codes' }]);
  });
});
