/**
 * Instance profile garbage collection through the IAM adapter (aws-sdk-client-mock answering as
 * IAM does) and the in-memory state store: only profiles this cluster's Nodesmith created go,
 * and only once no EC2NodeClass names a role for them and no claim of their class is left.
 */
import {
  DeleteInstanceProfileCommand,
  GetInstanceProfileCommand,
  IAMClient,
  ListInstanceProfilesCommand,
  ListInstanceProfileTagsCommand,
  NoSuchEntityException,
  RemoveRoleFromInstanceProfileCommand,
} from '@aws-sdk/client-iam';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { IamInstanceProfileCollection } from '../../../functions/adapters/ec2/iam-instance-profile-collection.ts';
import { collectInstanceProfiles } from '../../../functions/use-cases/controller/collect-instance-profiles.ts';
import { makeMemoryStateStore } from '../../../simulator/memory/memory-state-store.ts';
import { aNewNodeClaim, anEC2NodeClass } from '../../contracts/state-fixtures.ts';

const iam = mockClient(IAMClient);
afterEach(() => iam.reset());
// The mock stubs the client's class; the next file in this worker needs the real one.
afterAll(() => iam.restore());

const ours = (nodeClass: string, region = 'us-east-1', cluster = 'shop') => [
  { Key: 'kubernetes.io/cluster/shop', Value: cluster === 'shop' ? 'owned' : 'shared' },
  { Key: `kubernetes.io/cluster/${cluster}`, Value: 'owned' },
  { Key: 'topology.kubernetes.io/region', Value: region },
  { Key: 'karpenter.k8s.aws/ec2nodeclass', Value: nodeClass },
];

/** IAM as it answers: two pages of profiles under /nodesmith/, tags read one profile at a time. */
function stubIam(profiles: Readonly<Record<string, { Key: string; Value: string }[]>>): void {
  const names = Object.keys(profiles);
  const listed = (name: string) => ({
    InstanceProfileName: name,
    InstanceProfileId: `AIPA${name.length}`,
    Arn: `arn:aws:iam::111122223333:instance-profile/nodesmith/${name}`,
    Path: '/nodesmith/',
    CreateDate: new Date('2026-11-01T00:00:00Z'),
    Roles: [],
  });
  iam
    .on(ListInstanceProfilesCommand, { PathPrefix: '/nodesmith/', Marker: undefined })
    .resolves({ InstanceProfiles: names.slice(0, 2).map(listed), IsTruncated: true, Marker: 'm1' })
    .on(ListInstanceProfilesCommand, { PathPrefix: '/nodesmith/', Marker: 'm1' })
    .resolves({ InstanceProfiles: names.slice(2).map(listed), IsTruncated: false });
  for (const [name, Tags] of Object.entries(profiles)) {
    iam.on(ListInstanceProfileTagsCommand, { InstanceProfileName: name }).resolves({ Tags });
    iam.on(GetInstanceProfileCommand, { InstanceProfileName: name }).resolves({
      InstanceProfile: {
        ...listed(name),
        Roles: [
          {
            RoleName: 'KarpenterNodeRole-shop',
            Path: '/',
            RoleId: 'AROA',
            Arn: 'arn:aws:iam::111122223333:role/KarpenterNodeRole-shop',
            CreateDate: new Date('2026-11-01T00:00:00Z'),
          },
        ],
      },
    });
  }
  iam.on(RemoveRoleFromInstanceProfileCommand).resolves({});
  iam.on(DeleteInstanceProfileCommand).resolves({});
}

async function stateWith() {
  const state = makeMemoryStateStore();
  await state.nodeClasses.create(anEC2NodeClass('current', 'KarpenterNodeRole-shop'), 'h1');
  const switched = anEC2NodeClass('switched');
  await state.nodeClasses.create(
    { ...switched, spec: { ...switched.spec, role: undefined, instanceProfile: 'given' } },
    'h2',
  );
  await state.nodeClaims.create(aNewNodeClaim({ name: 'draining-x1', nodeClass: 'draining' }));
  return state;
}

describe('instance profile garbage collection', () => {
  it('deletes the profiles of classes gone or no longer naming a role, keeping those a claim still uses', async () => {
    stubIam({
      shop_1: ours('current'),
      shop_2: ours('gone'),
      shop_3: ours('switched'),
      shop_4: ours('draining'),
    });
    const profiles = new IamInstanceProfileCollection(new IAMClient({}), {
      name: 'shop',
      region: 'us-east-1',
    });
    const deleted = await collectInstanceProfiles({ state: await stateWith(), profiles });
    expect(deleted).toEqual(['shop_2', 'shop_3']);
    expect(
      iam.commandCalls(RemoveRoleFromInstanceProfileCommand).map((c) => c.args[0].input),
    ).toEqual([
      { InstanceProfileName: 'shop_2', RoleName: 'KarpenterNodeRole-shop' },
      { InstanceProfileName: 'shop_3', RoleName: 'KarpenterNodeRole-shop' },
    ]);
    expect(
      iam
        .commandCalls(DeleteInstanceProfileCommand)
        .map((c) => c.args[0].input.InstanceProfileName),
    ).toEqual(['shop_2', 'shop_3']);
  });

  it('never lists a profile another cluster, another region or someone else made', async () => {
    stubIam({
      lab_1: ours('gone', 'us-east-1', 'lab'),
      shop_5: ours('gone', 'eu-west-1'),
      handmade: [{ Key: 'team', Value: 'platform' }],
    });
    const profiles = new IamInstanceProfileCollection(new IAMClient({}), {
      name: 'shop',
      region: 'us-east-1',
    });
    expect(await profiles.listCreated()).toEqual([]);
    expect(await collectInstanceProfiles({ state: await stateWith(), profiles })).toEqual([]);
    expect(iam.commandCalls(DeleteInstanceProfileCommand)).toEqual([]);
  });

  it('counts a profile deleted meanwhile as done', async () => {
    iam
      .on(GetInstanceProfileCommand)
      .rejects(new NoSuchEntityException({ message: 'gone', $metadata: {} }));
    const profiles = new IamInstanceProfileCollection(new IAMClient({}), {
      name: 'shop',
      region: 'us-east-1',
    });
    await expect(profiles.delete('shop_2')).resolves.toBeUndefined();
    expect(iam.commandCalls(DeleteInstanceProfileCommand)).toEqual([]);
  });
});
