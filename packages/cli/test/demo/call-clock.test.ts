import { expect } from 'chai';
import { createCallClock } from '../../src/demo/call-clock.js';

describe('createCallClock', () => {
  it('runs due timers in order of due time, at their due time, ties in the order they were set', () => {
    const clock = createCallClock(1_000);
    const ran: [string, number][] = [];
    const note = (name: string) => () => ran.push([name, clock.now()]);
    clock.setTimeout(note('late'), 300);
    clock.setTimeout(note('early'), 100);
    clock.setTimeout(note('tie-first'), 200);
    clock.setTimeout(note('tie-second'), 200);
    clock.setTimeout(note('not yet'), 600);
    expect(clock.advanceTo(1_500)).to.equal(true);
    expect(ran).to.deep.equal([
      ['early', 1_100],
      ['tie-first', 1_200],
      ['tie-second', 1_200],
      ['late', 1_300],
    ]);
    expect(clock.now()).to.equal(1_500);
  });

  it('runs a timer set by a timer when it is due too, and never a cleared one', () => {
    const clock = createCallClock(0);
    const ran: number[] = [];
    const cleared = clock.setTimeout(() => ran.push(-1), 10);
    clock.clearTimeout(cleared);
    clock.setTimeout(() => {
      ran.push(clock.now());
      clock.setTimeout(() => ran.push(clock.now()), 50);
      clock.setTimeout(() => ran.push(clock.now()), 500);
    }, 20);
    clock.advanceTo(100);
    expect(ran).to.deep.equal([20, 70]);
    expect(clock.advanceTo(200)).to.equal(false);
    expect(clock.advanceTo(520)).to.equal(true);
    expect(ran).to.deep.equal([20, 70, 520]);
  });

  it('never goes back', () => {
    const clock = createCallClock(100);
    clock.advanceTo(50);
    expect(clock.now()).to.equal(100);
  });
});
