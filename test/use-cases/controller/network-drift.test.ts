/**
 * Subnet and security group drift through a controller pass (aws: pkg/cloudprovider/drift.go):
 * the pass resolves the class's subnets and security groups as Karpenter keeps them in its
 * status, and compares them with what each claim recorded at launch.
 */
import { describe, expect, it } from 'vitest';
import type { InstanceNetwork } from '../../../functions/domain/instance-network.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { aPassWorld, aRunningClaim, type PassWorld, useFakeApiServer } from './pass-world.ts';

const server = useFakeApiServer();
const SETTINGS = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };

/** What the simulated cloud resolves the class `default` to in us-east-1a. */
const CURRENT: InstanceNetwork = {
  subnetId: 'subnet-sim-us-east-1a',
  securityGroupIds: ['sg-sim-nodes'],
};

/** A running claim of `general` launched with `network`, with a pod on its node. */
async function aBusyClaim(world: PassWorld, name: string, network: InstanceNetwork) {
  const claim = await aRunningClaim(world, server(), name, { network });
  server().store.create('pods', {
    metadata: { name: `web-${name}`, namespace: 'default' },
    spec: { nodeName: claim.nodeName ?? '', containers: [{ name: 'web', image: 'nginx' }] },
    status: { phase: 'Running' },
  });
  return claim;
}

describe('subnet and security group drift in a pass', () => {
  it.each([
    {
      drift: 'SubnetDrift',
      launchedWith: { ...CURRENT, subnetId: 'subnet-retired-us-east-1a' },
      says: 'subnet subnet-retired-us-east-1a is no longer selected',
    },
    {
      drift: 'SecurityGroupDrift',
      launchedWith: { ...CURRENT, securityGroupIds: ['sg-sim-nodes', 'sg-legacy'] },
      says: 'security groups sg-legacy, sg-sim-nodes are no longer those selected',
    },
    { drift: 'nothing', launchedWith: CURRENT, says: undefined },
  ])(
    'replaces a node whose class no longer resolves to what it launched with ($drift)',
    async ({ drift, launchedWith, says }) => {
      // Prepare: a busy node launched into a subnet and security groups
      const world = await aPassWorld(server(), 0);
      await aBusyClaim(world, 'general-bbbbb', launchedWith);

      // Act
      await runControllerPass(world.deps, SETTINGS);

      // Assess
      const claims = await world.state.nodeClaims.list();
      const drifted = claims.filter((c) => c.disruption?.reason === 'Drifted');
      if (says === undefined) {
        expect(drifted).toEqual([]);
        return;
      }
      expect(drifted.map((c) => c.name)).toEqual(['general-bbbbb']);
      expect(drifted[0]?.disruption?.message).toContain(`${drift}: ${says}`);
      expect(drifted[0]?.disruption?.replacements).toHaveLength(1);
    },
  );

  it('records the subnet and security groups of the instances it launches, which then do not drift', async () => {
    // Prepare
    const world = await aPassWorld(server(), 3);

    // Act
    const report = await runControllerPass(world.deps, SETTINGS);

    // Assess
    const claims = await world.state.nodeClaims.list();
    expect(report.launches.length).toBeGreaterThan(0);
    for (const claim of claims) {
      expect(claim.network).toEqual({
        subnetId: `subnet-sim-${claim.offering.zone}`,
        securityGroupIds: ['sg-sim-nodes'],
      });
    }
  });
});
