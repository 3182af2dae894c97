import { expect } from 'chai';
import {
  collectValues,
  compileArgumentPath,
  describeLocation,
} from '../../src/checker/argument-path.js';
import { ArgcheckConfigError } from '../../src/errors.js';

describe('argument paths', () => {
  it('compiles dotted paths with array markers', () => {
    expect(compileArgumentPath('items[].warehouse_code', 't')).to.deep.equal({
      text: 'items[].warehouse_code',
      segments: [
        { key: 'items', arrays: 1 },
        { key: 'warehouse_code', arrays: 0 },
      ],
    });
    expect(compileArgumentPath('grid[][]', 't').segments).to.deep.equal([
      { key: 'grid', arrays: 2 },
    ]);
  });

  for (const bad of ['', 'a..b', '.a', 'a.', 'a[0]', 'a[', 'a]b', 'a[]b', '[]']) {
    it(`rejects ${JSON.stringify(bad)} with ARGCHECK_INVALID_PATH`, () => {
      expect(() => compileArgumentPath(bad, 'refund_order'))
        .to.throw(ArgcheckConfigError)
        .with.property('code', 'ARGCHECK_INVALID_PATH');
    });
  }

  it('collects every value at a path, with concrete locations', () => {
    const args = {
      items: [{ warehouse_code: 'AMS1' }, { other: 1 }, 'not an object', { warehouse_code: 7 }],
    };
    const path = compileArgumentPath('items[].warehouse_code', 't');
    expect(collectValues(args, path)).to.deep.equal([
      { value: 'AMS1', location: ['items', 0, 'warehouse_code'] },
      { value: 7, location: ['items', 3, 'warehouse_code'] },
    ]);
  });

  it('finds nothing where the structure differs, and never reads inherited keys', () => {
    const nested = compileArgumentPath('filters.status', 't');
    expect(collectValues({ filters: 'open' }, nested)).to.deep.equal([]);
    expect(collectValues({ filters: ['open'] }, nested)).to.deep.equal([]);
    expect(collectValues({}, compileArgumentPath('constructor', 't'))).to.deep.equal([]);
    expect(collectValues({}, compileArgumentPath('toString', 't'))).to.deep.equal([]);
    const own = JSON.parse('{"__proto__": "x"}') as unknown;
    expect(collectValues(own, compileArgumentPath('__proto__', 't'))).to.deep.equal([
      { value: 'x', location: ['__proto__'] },
    ]);
  });

  it('describes locations for humans', () => {
    expect(describeLocation(['items', 2, 'warehouse_code'])).to.equal('items[2].warehouse_code');
    expect(describeLocation(['grid', 0, 1])).to.equal('grid[0][1]');
  });
});
