import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../functions/domain/pod.ts';
import { NO_REQUIREMENTS } from '../../../functions/domain/requirements/requirements.ts';
import { podRequests } from '../../../functions/domain/scheduling/pod-requests.ts';
import { Queue } from '../../../functions/domain/scheduling/queue.ts';
import { SchedulingPod } from '../../../functions/domain/scheduling/scheduling-pod.ts';
import { aPod } from '../../support/builders.ts';

function schedulingPod(pod: Pod): SchedulingPod {
  return new SchedulingPod({
    pod,
    requests: podRequests(pod),
    volumes: NO_REQUIREMENTS,
    ignorePreferences: false,
  });
}

function drain(queue: Queue): string[] {
  const names: string[] = [];
  for (let pod = queue.pop(); pod !== undefined; pod = queue.pop()) names.push(pod.pod.name);
  return names;
}

describe('the order pods are tried in', () => {
  it('is largest CPU first, then memory, then oldest, then uid', () => {
    // Prepare
    const pods = [
      aPod({ name: 'small', cpu: '100m', memory: '1Gi' }),
      aPod({ name: 'b-newer', cpu: '1', memory: '1Gi', creationTimestamp: '2026-01-02T00:00:00Z' }),
      aPod({ name: 'big', cpu: '2', memory: '1Gi' }),
      aPod({ name: 'b-older', cpu: '1', memory: '1Gi', creationTimestamp: '2026-01-01T00:00:00Z' }),
      aPod({ name: 'more-memory', cpu: '1', memory: '4Gi' }),
      aPod({ name: 'a-same', cpu: '1', memory: '1Gi', creationTimestamp: '2026-01-01T00:00:00Z' }),
    ].map(schedulingPod);

    // Act
    const order = drain(new Queue(pods));

    // Assess
    expect(order).toEqual(['big', 'more-memory', 'a-same', 'b-older', 'b-newer', 'small']);
  });

  it('does not depend on the order pods come in', () => {
    // Prepare
    const pods = [
      aPod({ name: 'x', cpu: '1' }),
      aPod({ name: 'y', cpu: '1' }),
      aPod({ name: 'z', cpu: '2' }),
    ].map(schedulingPod);

    // Act
    const forward = drain(new Queue(pods));
    const backward = drain(new Queue([...pods].reverse()));

    // Assess
    expect(backward).toEqual(forward);
  });
});

describe('ending a scheduling pass', () => {
  it('stops once every remaining pod has failed since the last placement', () => {
    // Prepare
    const pods = ['a', 'b', 'c'].map((name) => schedulingPod(aPod({ name, cpu: '1' })));
    const queue = new Queue(pods);
    const tried: string[] = [];

    // Act
    for (let pod = queue.pop(); pod !== undefined; pod = queue.pop()) {
      tried.push(pod.pod.name);
      queue.push(pod, false);
    }

    // Assess
    expect(tried).toEqual(['a', 'b', 'c']);
    expect(queue.remaining().map((p) => p.pod.name)).toEqual(['a', 'b', 'c']);
  });

  it('gives failed pods another round after something was placed', () => {
    // Prepare
    const pods = ['a', 'b'].map((name) => schedulingPod(aPod({ name, cpu: '1' })));
    const queue = new Queue(pods);
    const tried: string[] = [];

    // Act
    for (let pod = queue.pop(); pod !== undefined; pod = queue.pop()) {
      tried.push(pod.pod.name);
      if (pod.pod.name === 'a') queue.push(pod, false);
      // b is placed
    }

    // Assess
    expect(tried).toEqual(['a', 'b', 'a']);
    expect(queue.length).toBe(1);
  });

  it('gives everyone another round after a pod was relaxed', () => {
    // Prepare
    const pods = ['a', 'b'].map((name) => schedulingPod(aPod({ name, cpu: '1' })));
    const queue = new Queue(pods);
    const tried: string[] = [];
    let relaxations = 1;

    // Act
    for (let pod = queue.pop(); pod !== undefined; pod = queue.pop()) {
      tried.push(pod.pod.name);
      const relaxed = pod.pod.name === 'b' && relaxations-- > 0;
      queue.push(pod, relaxed);
    }

    // Assess
    expect(tried).toEqual(['a', 'b', 'a', 'b']);
  });

  it('ends at once when there is nothing to do', () => {
    // Act
    const queue = new Queue([]);

    // Assess
    expect(queue.pop()).toBeUndefined();
    expect(queue.length).toBe(0);
  });
});
