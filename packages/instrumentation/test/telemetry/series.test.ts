import { expect } from 'chai';
import { createSeriesRegistry, SLOT } from '../../src/telemetry/series.js';

describe('series registry', () => {
  it('allocates one slot block per (tool, argument, set) and reuses it', () => {
    const registry = createSeriesRegistry();
    const a = registry.configured('t', 'a', 's');
    expect(registry.configured('t', 'a', 's')).to.equal(a);
    expect(registry.derived('t', 'a', 's', 0)).to.equal(a);
    expect(registry.configured('t', 'a', 'other')).not.to.equal(a);
    expect(a.counts).to.have.length(SLOT.COUNT);
    expect(registry.arguments).to.have.length(2);
    expect(registry.tools.map((t) => t.tool)).to.deep.equal(['t']);
  });

  it('gives derived arguments a budget, counted over the registry lifetime', () => {
    const registry = createSeriesRegistry();
    expect(registry.derived('t', 'a', 's', 2)).to.not.equal(undefined);
    expect(registry.derived('t', 'b', 's', 2)).to.not.equal(undefined);
    expect(registry.derived('t', 'c', 's', 2)).to.equal(undefined);
    // A known one is still served, and configured ones are never refused.
    expect(registry.derived('t', 'a', 's', 2)).to.not.equal(undefined);
    expect(registry.configured('t', 'c', 's')).to.not.equal(undefined);
  });

  it('keeps names exactly, even ones that look like JSON or prototype keys', () => {
    const registry = createSeriesRegistry();
    const odd = registry.configured('__proto__', '","', 'constructor');
    expect(odd.attributes[SLOT.REWRITTEN]).to.deep.equal({
      tool: '__proto__',
      argument: '","',
      set: 'constructor',
    });
    expect(Object.isFrozen(odd.attributes[SLOT.IN_SET])).to.equal(true);
  });
});
