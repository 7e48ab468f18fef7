import { describe, expect, it } from 'vitest';
import {
  planProvisioning,
  prepareScheduling,
} from '../../../functions/domain/scheduling/plan-provisioning.ts';
import { aPod } from '../../support/builders.ts';
import {
  aDaemonSet,
  aManagedNode,
  aProvisioningInput,
  planProjection,
} from '../../support/scheduling-builders.ts';

describe('prepared scheduling', () => {
  it('plans exactly as an unprepared plan, whichever nodes the input then marks deleting', () => {
    const managed = ['a', 'b', 'c', 'd'].map((name, i) =>
      aManagedNode({ name, cpu: String(2 + i), zone: `test-zone-${'abc'[i % 3]}` }),
    );
    const pods = managed.flatMap(({ node }) => [
      aPod({ nodeName: node.name, cpu: '900m', labels: { app: 'web' } }),
      aPod({ nodeName: node.name, cpu: '400m', ownerKind: 'DaemonSet' }),
    ]);
    const input = aProvisioningInput({
      pods: [...pods, aPod({ cpu: '1500m' })],
      nodes: managed.map((m) => m.node),
      nodeClaims: managed.map((m) => m.nodeClaim),
      daemonSets: [aDaemonSet({ cpu: '400m' })],
    });
    const prepared = prepareScheduling(input);
    for (const going of [[], ['a'], ['b', 'd'], ['a', 'b', 'c', 'd']]) {
      const variant = {
        ...input,
        nodes: input.nodes.map((n) => (going.includes(n.name) ? { ...n, deleting: true } : n)),
      };
      expect(planProjection(planProvisioning(variant, prepared))).toEqual(
        planProjection(planProvisioning(variant)),
      );
    }
  });
});
