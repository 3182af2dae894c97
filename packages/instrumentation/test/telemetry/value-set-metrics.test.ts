import { expect } from 'chai';
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { functionValueSet, httpValueSet } from '@argcheck/core';
import {
  ATTR_OUTCOME,
  ATTR_SET,
  ATTR_SOURCE,
  METRIC_TOOL_ARGUMENT_VALUE_SET_AGE,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION,
  METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE,
} from '../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { refundSources, REFUNDS } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';

const setAttrs = (set: string, source: string) => ({ [ATTR_SET]: set, [ATTR_SOURCE]: source });
const fetchAttrs = (set: string, source: string, outcome: string) => ({
  ...setAttrs(set, source),
  [ATTR_OUTCOME]: outcome,
});

describe('value-set metrics', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('read age and size from the provider at collection time', async () => {
    const clock = new ManualClock();
    h = harness({ valueSets: refundSources(), clock });
    await h.inst.ready();
    await clock.tick(30_000);
    let collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_AGE)).to.deep.equal([
      { attributes: setAttrs(REFUNDS, 'static'), value: 30 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE)).to.deep.equal([
      { attributes: setAttrs(REFUNDS, 'static'), value: 4 },
    ]);
    await clock.tick(15_000);
    collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_AGE)).to.deep.equal([
      { attributes: setAttrs(REFUNDS, 'static'), value: 45 },
    ]);
  });

  it('report size 0 and no age for a set never fetched', async () => {
    const clock = new ManualClock();
    h = harness({
      valueSets: { down: functionValueSet(() => Promise.reject(new Error('no'))) },
      clock,
    });
    await h.inst.ready();
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE)).to.deep.equal([
      { attributes: setAttrs('down', 'function'), value: 0 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_AGE)).to.deep.equal([]);
    expect(h.inst.valueSets.status()).to.have.length(1);
  });

  describe('fetches from a loopback HTTP owner', () => {
    let owner: Server;
    let url: string;
    let respond: (res: ServerResponse) => void;

    before(async () => {
      owner = createServer((_req, res) => respond(res));
      await new Promise<void>((resolve) => owner.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(owner.address() as AddressInfo).port}/codes`;
    });
    after(() => new Promise<void>((resolve) => owner.close(() => resolve())));

    it('count each fetch by outcome and record its duration in seconds', async () => {
      const clock = new ManualClock();
      h = harness({ valueSets: { [REFUNDS]: httpValueSet(url) }, clock, ttlMs: 60_000 });
      // The owner answers once 250 ms have passed on the injected clock.
      const arrived = new Promise<ServerResponse>((resolve) => {
        respond = resolve;
      });
      const ready = h.inst.ready();
      const first = await arrived;
      await clock.tick(250);
      first.end(JSON.stringify(['LATE', 'DAMAGED']));
      await ready;
      respond = (res) => {
        res.statusCode = 200;
        res.end('{ not json');
      };
      await h.inst.valueSets.refresh(REFUNDS);
      respond = (res) => {
        res.statusCode = 503;
        res.end();
      };
      await h.inst.valueSets.refresh(REFUNDS);
      const collected = await h.collect();
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH)).to.deep.equal([
        { attributes: fetchAttrs(REFUNDS, 'http', 'fetch_failed'), value: 1 },
        { attributes: fetchAttrs(REFUNDS, 'http', 'invalid_payload'), value: 1 },
        { attributes: fetchAttrs(REFUNDS, 'http', 'success'), value: 1 },
      ]);
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION)).to.deep.equal([
        { attributes: fetchAttrs(REFUNDS, 'http', 'fetch_failed'), value: { count: 1, sum: 0 } },
        { attributes: fetchAttrs(REFUNDS, 'http', 'invalid_payload'), value: { count: 1, sum: 0 } },
        { attributes: fetchAttrs(REFUNDS, 'http', 'success'), value: { count: 1, sum: 0.25 } },
      ]);
      // The set fetched first is still served.
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE)).to.deep.equal([
        { attributes: setAttrs(REFUNDS, 'http'), value: 2 },
      ]);
    });
  });
});
