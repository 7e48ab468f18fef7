/**
 * The pieces of fault injection, on their own: a process exit at a port call (before the call,
 * or after it took effect), EC2 throttling at the cloud port only, wakes delivered late and
 * twice, and plans drawn the same for a seed.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../functions/ports/cluster.ts';
import { ThrottledError } from '../../../functions/ports/errors.ts';
import { SimulatedCloud } from '../../../simulator/cloud/simulated-cloud.ts';
import {
  type ControllerFaultPlan,
  ControllerFaults,
} from '../../../simulator/faults/controller-faults.ts';
import { FaultPlan } from '../../../simulator/faults/fault-plan.ts';
import { FaultTally } from '../../../simulator/faults/fault-tally.ts';
import { makeMemoryStateStore } from '../../../simulator/memory/memory-state-store.ts';
import { SimulatedClock } from '../../../simulator/simulated-clock.ts';
import { SimulatedWorkQueue } from '../../../simulator/simulated-work-queue.ts';
import { aNewNodeClaim, T0 } from '../../contracts/state-fixtures.ts';

const NOT_YET = Symbol('not settled');

/** What the promise settled with by the time everything already queued has run. */
async function settledNow(promise: Promise<unknown>): Promise<unknown> {
  const later = new Promise((resolve) => setTimeout(() => resolve(NOT_YET), 10));
  return Promise.race([promise.catch((error: unknown) => error), later]);
}

function invocation(plan: ControllerFaultPlan) {
  const tally = new FaultTally();
  const state = makeMemoryStateStore();
  const cloud = new SimulatedCloud({
    clock: new SimulatedClock(T0),
    region: 'us-east-1',
    zones: ['us-east-1a'],
    seed: 1,
  });
  const cluster = {} as Cluster;
  let exits = 0;
  const faults = new ControllerFaults(plan, tally, () => 0);
  const ports = faults.ports({ state, cloud, cluster }, () => {
    exits += 1;
  });
  return { tally, state, ports, exits: () => exits };
}

describe('a process exit at a port call', () => {
  it('before the call: the call is never made, and nothing after it answers', async () => {
    const run = invocation({
      exits: [{ call: 'state.nodeClaims.create', occurrence: 1, when: 'before' }],
      throttleRate: 0,
    });
    const create = run.ports.state.nodeClaims.create(aNewNodeClaim({ name: 'general-1' }));
    expect(await settledNow(create)).toBe(NOT_YET);
    expect(run.exits()).toBe(1);
    expect(await run.state.nodeClaims.get('general-1')).toBeUndefined();
    expect(await settledNow(run.ports.state.nodeClaims.list())).toBe(NOT_YET);
    expect(run.tally.counts()).toEqual({ 'process exit before state.nodeClaims.create': 1 });
  });

  it('after the call: it took effect, but its answer never comes back', async () => {
    const run = invocation({
      exits: [{ call: 'state.nodeClaims.create', occurrence: 2, when: 'after' }],
      throttleRate: 0,
    });
    await run.ports.state.nodeClaims.create(aNewNodeClaim({ name: 'general-1' }));
    const second = run.ports.state.nodeClaims.create(aNewNodeClaim({ name: 'general-2' }));
    expect(await settledNow(second)).toBe(NOT_YET);
    expect(run.exits()).toBe(1);
    expect((await run.state.nodeClaims.list()).map((c) => c.name)).toEqual([
      'general-1',
      'general-2',
    ]);
  });

  it('counted over every call when no call is named', async () => {
    const run = invocation({ exits: [{ occurrence: 3, when: 'before' }], throttleRate: 0 });
    await run.ports.state.nodeClaims.list();
    await run.ports.state.nodePools.list();
    expect(await settledNow(run.ports.state.nodeClaims.list())).toBe(NOT_YET);
    expect(run.tally.counts()).toEqual({ 'process exit before state.nodeClaims.list': 1 });
  });
});

describe('EC2 throttling', () => {
  it('refuses cloud calls with the port error and leaves the state store alone', async () => {
    const run = invocation({ exits: [], throttleRate: 1 });
    expect(await settledNow(run.ports.cloud.listManaged())).toBeInstanceOf(ThrottledError);
    expect(await run.ports.state.nodeClaims.list()).toEqual([]);
    expect(run.tally.counts()).toEqual({ 'EC2 throttling': 1 });
  });
});

describe('wake delivery', () => {
  it('delivers the copies the plan asks for, a late one after wakes sent later', async () => {
    const clock = new SimulatedClock(T0);
    const copies = [[0, 5000], [0]];
    const queue = new SimulatedWorkQueue(clock, { copies: () => copies.shift() ?? [0] });
    await queue.wake({ source: 'audit', reason: 'first' });
    clock.advanceTo(T0.getTime() + 1000);
    await queue.wake({ source: 'audit', reason: 'second' });
    clock.advanceTo(T0.getTime() + 10_000);
    expect(queue.due().map((q) => q.wake.reason)).toEqual(['first', 'second', 'first']);
  });
});

describe('a fault plan', () => {
  it('is drawn the same for a seed, and differently for another', () => {
    const plans = [7, 7, 8].map(
      (seed) => new FaultPlan(seed, 600, ['us-east-1a', 'us-east-1b']).summary,
    );
    expect(plans[1]).toEqual(plans[0]);
    expect(plans[2]).not.toEqual(plans[0]);
  });
});
