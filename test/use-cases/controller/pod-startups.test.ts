/**
 * Pod startup through controller passes (docs/metrics.md): each pass reports the pods that
 * turned Ready, and were bound, since the pass before took the lease, each once, timed from the
 * pod's creation (core: pkg/controllers/metrics/pod/controller.go).
 */
import { describe, expect, it } from 'vitest';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { aPassWorld, T0, useFakeApiServer } from './pass-world.ts';

const server = useFakeApiServer();
const SETTINGS = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

describe('pod startup in passes', () => {
  it('reports a pod that started between two passes once, from its creation', async () => {
    // Prepare
    const world = await aPassWorld(server(), 0);
    const first = await runControllerPass(world.deps, SETTINGS);
    server().store.create('pods', {
      metadata: { name: 'web', namespace: 'default', creationTimestamp: at(5) },
      spec: { nodeName: 'ip-10-0-0-1.ec2.internal', containers: [{ name: 'web', image: 'nginx' }] },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'PodScheduled', status: 'True', lastTransitionTime: at(6) },
          { type: 'Ready', status: 'True', lastTransitionTime: at(20) },
        ],
      },
    });

    // Act
    world.clock.moveTo(60);
    const second = await runControllerPass(world.deps, SETTINGS);
    world.clock.moveTo(120);
    const third = await runControllerPass(world.deps, SETTINGS);

    // Assess
    expect(first.podStartups).toBeUndefined();
    expect(second.podStartups).toEqual({ startup: [15], bound: [1] });
    expect(third.podStartups).toBeUndefined();
  });
});
