/**
 * The account's IAM enforced on the EC2 adapter's calls over the wire: the authorizer reads the
 * tags the simulated EC2 holds (`aws:ResourceTag`), so a role that may terminate only its
 * cluster's instances terminates its own and is refused Karpenter's; an action taken from every
 * role (`--deny ec2:CreateFleet`) refuses the launch; each denial is recorded with its function,
 * action and resource.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import { SimulatedCloud } from '../../../simulator/cloud/simulated-cloud.ts';
import { makeAuthorizer } from '../../../simulator/iam/authorizer.ts';
import type { PolicyDocument } from '../../../simulator/iam/policy-document.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import {
  ACCOUNT,
  CLUSTER,
  CONTROLLER_ROLE,
  KARPENTERS_INSTANCE,
  startKarpentersInstance,
  startTwin,
  type Twin,
  theGuidesNodeClass,
  ZONES,
} from './twin.ts';

/** Everything, but terminating only what carries the cluster's ownership tag. */
const CONTROLLER_POLICY: PolicyDocument = {
  Statement: [
    { Effect: 'Allow', NotAction: 'ec2:TerminateInstances', Resource: '*' },
    {
      Effect: 'Allow',
      Action: 'ec2:TerminateInstances',
      Resource: '*',
      Condition: { StringEquals: { 'aws:ResourceTag/nodesmith.io/cluster': CLUSTER } },
    },
  ],
};

const NODE_CLASS = theGuidesNodeClass();

function claim(): NodeClaimRecord {
  return {
    ...aNewNodeClaim({
      name: 'default-abcde',
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.large'] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      ],
      instanceTypeOptions: ['m5.large'],
      offering: {
        instanceType: 'm5.large',
        zone: ZONES[0] ?? '',
        capacityType: 'on-demand',
        pricePerHour: 0.096,
      },
    }),
    version: 1,
  };
}

async function launch(twin: Twin) {
  const types = await new SimulatedCloud(twin.ec2).instanceTypes(NODE_CLASS);
  const instanceTypes = types
    .filter((it) => it.name === 'm5.large')
    .map((it) => ({
      ...it,
      offerings: it.offerings.filter((o) => o.capacityType === 'on-demand'),
    }));
  const context = {
    nodeClass: NODE_CLASS,
    labels: {},
    taints: [],
    startupTaints: [],
    instanceTypes,
  };
  return twin.cloud().launch(claim(), context);
}

function authorized(deny: readonly string[] = []) {
  return startTwin({
    authorizer: (lookups) =>
      makeAuthorizer(new Map([[CONTROLLER_ROLE, [CONTROLLER_POLICY]]]), lookups, {
        account: { partition: 'aws', accountId: ACCOUNT },
        deny,
      }),
  });
}

describe('IAM enforced on the EC2 adapter over the wire', () => {
  let twin: Twin;
  afterEach(async () => {
    await twin.close();
  });

  it("terminates the cluster's own instance and is refused Karpenter's, by the tags EC2 holds", async () => {
    // Prepare
    twin = await authorized();
    const own = await launch(twin);
    startKarpentersInstance(twin.ec2);

    // Act
    await twin.cloud().terminate(own.instanceId);
    const refused = twin.cloud().terminate(KARPENTERS_INSTANCE);

    // Assess
    await expect(refused).rejects.toMatchObject({ name: 'UnauthorizedOperation' });
    expect(twin.ec2.find(own.instanceId)?.terminatedAt).toBeDefined();
    expect(twin.ec2.find(KARPENTERS_INSTANCE)?.terminatedAt).toBeUndefined();
    expect(twin.endpoint.denied).toEqual([
      {
        function: 'controller',
        action: 'ec2:TerminateInstances',
        resource: `arn:aws:ec2:us-east-1:${ACCOUNT}:instance/${KARPENTERS_INSTANCE}`,
      },
    ]);
  });

  it('refuses the launch when CreateFleet is taken from every role, and names the denial', async () => {
    // Prepare
    twin = await authorized(['ec2:CreateFleet']);

    // Act
    const refused = launch(twin);

    // Assess
    await expect(refused).rejects.toMatchObject({ name: 'UnauthorizedOperation' });
    expect(twin.ec2.instances()).toEqual([]);
    expect(twin.endpoint.denied.map((d) => [d.function, d.action])).toEqual([
      ['controller', 'ec2:CreateFleet'],
    ]);
  });
});
