/**
 * IAM and STS of the simulated account over the AWS query protocol: the deploy guide's
 * EC2NodeClass, which names a `role`, resolves through the controller's unchanged provisioner
 * making its instance profile; IAM refuses as it does (an unknown role, a second role, a profile
 * it has not) and pages its listing; STS names the caller's assumed role.
 */
import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  GetInstanceProfileCommand,
  ListInstanceProfilesCommand,
} from '@aws-sdk/client-iam';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IamInstanceProfileCollection } from '../../../functions/adapters/ec2/iam-instance-profile-collection.ts';
import { presignGetCallerIdentity } from '../../../functions/adapters/eks/eks-token.ts';
import {
  ACCOUNT,
  CLUSTER,
  CONTROLLER_KEY,
  NODE_ROLE,
  REGION,
  startTwin,
  type Twin,
  theGuidesNodeClass,
} from './twin.ts';

describe('IAM and STS of the simulated account', () => {
  let twin: Twin;
  beforeEach(async () => {
    twin = await startTwin();
  });
  afterEach(async () => {
    await twin.close();
  });

  it("resolves the deploy guide's EC2NodeClass, making the instance profile for its role", async () => {
    // Prepare
    const nodeClass = theGuidesNodeClass();

    // Act
    const resolved = await twin.cloud().resolveNodeClass(nodeClass);

    // Assess
    const profile = await twin.clients.iam.send(
      new GetInstanceProfileCommand({ InstanceProfileName: resolved.instanceProfile }),
    );
    expect(profile.InstanceProfile?.Roles?.map((r) => r.RoleName)).toEqual([NODE_ROLE]);
    expect(resolved.subnets).toHaveLength(2);
    expect(twin.endpoint.calls).toEqual(
      expect.arrayContaining([
        { functionName: 'controller', action: 'iam:CreateInstanceProfile' },
        { functionName: 'controller', action: 'iam:AddRoleToInstanceProfile' },
      ]),
    );
  });

  it('finds the profiles it made by their tags, and deletes them with their role', async () => {
    // Prepare
    const resolved = await twin.cloud().resolveNodeClass(theGuidesNodeClass());
    const profiles = new IamInstanceProfileCollection(twin.clients.iam, {
      name: CLUSTER,
      region: REGION,
    });

    // Act
    const created = await profiles.listCreated();
    await profiles.delete(resolved.instanceProfile);

    // Assess
    expect(created).toEqual([{ name: resolved.instanceProfile, nodeClass: 'default' }]);
    await expect(
      twin.clients.iam.send(
        new GetInstanceProfileCommand({ InstanceProfileName: resolved.instanceProfile }),
      ),
    ).rejects.toMatchObject({ Code: 'NoSuchEntity', $metadata: { httpStatusCode: 404 } });
  });

  it('refuses a role it does not hold, and a second role in a profile', async () => {
    // Prepare
    const iam = twin.clients.iam;
    await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'p' }));
    await iam.send(
      new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'p', RoleName: NODE_ROLE }),
    );

    // Act
    const unknownRole = iam.send(
      new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'p', RoleName: 'NoSuchRole' }),
    );
    const secondRole = iam.send(
      new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'p', RoleName: NODE_ROLE }),
    );

    // Assess
    await expect(unknownRole).rejects.toMatchObject({ Code: 'NoSuchEntity' });
    await expect(secondRole).rejects.toMatchObject({ Code: 'LimitExceeded' });
  });

  it('pages its listing of instance profiles by Marker', async () => {
    // Prepare
    const iam = twin.clients.iam;
    for (const name of ['a', 'b', 'c']) {
      await iam.send(
        new CreateInstanceProfileCommand({ InstanceProfileName: name, Path: '/nodesmith/' }),
      );
    }

    // Act
    const first = await iam.send(
      new ListInstanceProfilesCommand({ PathPrefix: '/nodesmith/', MaxItems: 2 }),
    );
    const rest = await iam.send(
      new ListInstanceProfilesCommand({
        PathPrefix: '/nodesmith/',
        MaxItems: 2,
        Marker: first.Marker,
      }),
    );

    // Assess
    expect(first.InstanceProfiles?.map((p) => p.InstanceProfileName)).toEqual(['a', 'b']);
    expect(first.IsTruncated).toBe(true);
    expect(rest.InstanceProfiles?.map((p) => p.InstanceProfileName)).toEqual(['c']);
    expect(rest.IsTruncated).toBe(false);
  });

  it("names the caller's assumed role in GetCallerIdentity", async () => {
    // Prepare
    const sts = new STSClient({
      endpoint: twin.endpoint.url,
      region: REGION,
      credentials: { accessKeyId: CONTROLLER_KEY, secretAccessKey: 'simulated' },
    });

    // Act
    const identity = await sts.send(new GetCallerIdentityCommand({}));

    // Assess
    expect(identity).toMatchObject({
      Account: ACCOUNT,
      Arn: `arn:aws:sts::${ACCOUNT}:assumed-role/nodesmith-controller/controller`,
    });
  });

  it("answers the EKS token's presigned GetCallerIdentity URL with the signer's role", async () => {
    // Prepare
    const presigned = new URL(
      await presignGetCallerIdentity({
        clusterName: CLUSTER,
        region: REGION,
        credentials: { accessKeyId: CONTROLLER_KEY, secretAccessKey: 'simulated' },
        signingDate: twin.clock.now(),
      }),
    );
    const replayed = `${twin.endpoint.url}${presigned.pathname}${presigned.search}`;

    // Act
    const response = await fetch(replayed, { headers: { 'x-k8s-aws-id': CLUSTER } });

    // Assess
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(
      `<Arn>arn:aws:sts::${ACCOUNT}:assumed-role/nodesmith-controller/controller</Arn>`,
    );
  });

  it('refuses a key it does not know as STS does', async () => {
    // Prepare
    const sts = new STSClient({
      endpoint: twin.endpoint.url,
      region: REGION,
      credentials: { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'simulated' },
    });

    // Act
    const refused = sts.send(new GetCallerIdentityCommand({}));

    // Assess
    await expect(refused).rejects.toMatchObject({
      Code: 'InvalidClientTokenId',
      $metadata: { httpStatusCode: 403 },
    });
  });
});
