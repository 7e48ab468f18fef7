/**
 * Who a function's EKS token makes it in Kubernetes: its role's access entry gives the groups,
 * and the username is the role's session ARN, as EKS generates it by default.
 */
import { describe, expect, it } from 'vitest';
import { makeEksToken } from '../../../../functions/adapters/eks/eks-token.ts';
import { eksAuthenticator } from '../../../../simulator/aws/eks/eks-authenticator.ts';

const SIGNED_AT = Date.parse('2026-11-27T08:00:00Z');
const CONTROLLER_ROLE = 'arn:aws:iam::111122223333:role/service/Nodesmith-ControllerRole';
const CREDENTIALS = {
  accessKeyId: 'ASIACONTROLLER0001',
  secretAccessKey: 'controller-secret',
  sessionToken: 'controller-session',
};

function authenticator(accessEntries: Parameters<typeof eksAuthenticator>[0]['accessEntries']) {
  return eksAuthenticator({
    clusterName: 'shop',
    region: 'us-east-1',
    now: () => SIGNED_AT + 60_000,
    accountId: '111122223333',
    credentialsOf: (key) => (key === CREDENTIALS.accessKeyId ? CREDENTIALS : undefined),
    holderOf: (key) =>
      key === CREDENTIALS.accessKeyId
        ? { roleArn: CONTROLLER_ROLE, sessionName: 'Controller9BE1D41E' }
        : undefined,
    accessEntries,
  });
}

async function bearer(clusterName = 'shop'): Promise<string> {
  const made = await makeEksToken({
    clusterName,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    signingDate: new Date(SIGNED_AT),
  });
  return `Bearer ${made.token}`;
}

const CONTROLLER_ENTRY = {
  principalArn: CONTROLLER_ROLE,
  kubernetesGroups: ['nodesmith:controller'],
};

describe('the EKS authenticator', () => {
  it("makes a role's token the user of its access entry, named by its session ARN without the role's path", async () => {
    // Act
    const user = await authenticator([CONTROLLER_ENTRY])(await bearer());
    // Assess
    expect(user).toEqual({
      name: 'arn:aws:sts::111122223333:assumed-role/Nodesmith-ControllerRole/Controller9BE1D41E',
      groups: ['nodesmith:controller', 'system:authenticated'],
      extra: {
        arn: ['arn:aws:sts::111122223333:assumed-role/Nodesmith-ControllerRole/Controller9BE1D41E'],
        canonicalArn: [CONTROLLER_ROLE],
        sessionName: ['Controller9BE1D41E'],
        accessKeyId: [CREDENTIALS.accessKeyId],
      },
    });
  });

  it("fills an access entry's own username with the session name", async () => {
    // Act
    const user = await authenticator([
      { ...CONTROLLER_ENTRY, username: 'nodesmith:{{SessionName}}' },
    ])(await bearer());
    // Assess
    expect(user).toMatchObject({ name: 'nodesmith:Controller9BE1D41E' });
  });

  it.each([
    ['a role without an access entry', [], () => bearer()],
    ['a token for another cluster', [CONTROLLER_ENTRY], () => bearer('other')],
    [
      'a token that is no presigned URL',
      [CONTROLLER_ENTRY],
      async () => 'Bearer k8s-aws-v1.bm90LWEtdXJs',
    ],
  ])('refuses %s', async (_name, entries, header) => {
    // Act
    const user = await authenticator(entries)(await header());
    // Assess
    expect(user).toBe('unauthorized');
  });

  it.each([
    ['no credentials', undefined],
    ["another authenticator's token", 'Bearer test-token'],
  ])('leaves a request with %s to run unchecked', async (_name, header) => {
    // Act
    const user = await authenticator([CONTROLLER_ENTRY])(header);
    // Assess
    expect(user).toBeUndefined();
  });
});
