import { createValueSetProvider, httpValueSet } from '@argcheck/core';
import { expect } from 'chai';
import { startOwnerServer, type OwnerServer } from '../../src/demo/owner-server.js';
import { REASON_CODES, SEVENTH_REASON_CODE } from '../../src/demo/value-set-data.js';

describe('demo owner server (loopback HTTP)', () => {
  let owner: OwnerServer;
  beforeEach(async () => {
    owner = await startOwnerServer({
      'refunds.reason_codes': REASON_CODES,
      'wms.warehouses': [{ value: 'AMS1' }],
    });
  });
  afterEach(() => owner.close());

  it('serves each set as entries with aliases on 127.0.0.1', async () => {
    expect(owner.baseUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+\/value-sets\/$/);
    const response = await fetch(owner.urlFor('refunds.reason_codes'));
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal(REASON_CODES);
  });

  it('publishes an added member, answers 503 while down and 404 for unknown sets', async () => {
    owner.addMember('refunds.reason_codes', SEVENTH_REASON_CODE);
    const body = (await (await fetch(owner.urlFor('refunds.reason_codes'))).json()) as unknown[];
    expect(body.at(-1)).to.deep.equal(SEVENTH_REASON_CODE);
    owner.setDown('wms.warehouses', true);
    expect((await fetch(owner.urlFor('wms.warehouses'))).status).to.equal(503);
    owner.setDown('wms.warehouses', false);
    expect((await fetch(owner.urlFor('wms.warehouses'))).status).to.equal(200);
    expect((await fetch(owner.urlFor('nope'))).status).to.equal(404);
    expect(owner.requests()).to.deep.equal({
      'refunds.reason_codes': { 200: 1 },
      'wms.warehouses': { 503: 1, 200: 1 },
      '(unknown)': { 404: 1 },
    });
  });

  it("is read by core's httpValueSet, labels included", async () => {
    const provider = createValueSetProvider({
      sources: { refunds: httpValueSet(owner.urlFor('refunds.reason_codes')) },
    });
    await provider.ready();
    const lookup = provider.get('refunds');
    provider.close();
    if (lookup.state === 'unavailable') throw new Error(`unavailable: ${lookup.reason}`);
    expect(lookup.set.members()).to.deep.equal([
      'DAMAGED', 'DUPLICATE_CHARGE', 'LATE', 'NOT_AS_DESCRIBED', 'OTHER', 'WRONG_ITEM',
    ]); // prettier-ignore
    expect(lookup.set.classify('charged twice')).to.deep.equal({
      shape: 'alias',
      canonical: 'DUPLICATE_CHARGE',
    });
  });
});
