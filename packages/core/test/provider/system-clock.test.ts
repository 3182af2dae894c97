import { expect } from 'chai';
import { systemClock } from '../../src/provider/system-clock.js';

describe('systemClock', () => {
  it('hands out unref’d timers, so a provider never keeps a process alive', () => {
    const handle = systemClock.setTimeout(() => undefined, 60_000) as NodeJS.Timeout;
    try {
      expect(handle.hasRef()).to.equal(false);
    } finally {
      systemClock.clearTimeout(handle);
    }
  });

  it('reads the wall clock', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).to.be.within(before, Date.now());
  });
});
