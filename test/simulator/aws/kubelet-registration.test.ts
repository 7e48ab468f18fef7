/**
 * What the simulated kubelet reads from a launch template's user data, for each form the EC2
 * adapter writes it in: the labels and taints it registers with, and max pods.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterSettings } from '../../../functions/adapters/ec2/cluster-settings.ts';
import { bootstrapOptions } from '../../../functions/adapters/ec2/user-data/bootstrap-options.ts';
import { userDataFor } from '../../../functions/adapters/ec2/user-data/user-data.ts';
import type { AmiFamily } from '../../../functions/domain/node-class.ts';
import { kubeletRegistration } from '../../../simulator/aws/ec2/kubelet-registration.ts';

const CLUSTER: ClusterSettings = {
  name: 'shop',
  region: 'us-east-1',
  kubernetesVersion: '1.31',
  endpoint: 'https://shop.example.com',
  certificateAuthority: 'Y2E=',
};

/** The user data the EC2 adapter writes for a claim, base64 as the template holds it. */
function userData(amiFamily: AmiFamily, customUserData?: string): string {
  const options = bootstrapOptions({
    nodeClass: {
      metadata: { name: 'default' },
      spec: { amiFamily, ...(customUserData === undefined ? {} : { userData: customUserData }) },
    },
    labels: { 'karpenter.sh/nodepool': 'default', team: 'shop' },
    taints: [{ key: 'dedicated', value: 'shop', effect: 'NoSchedule' }],
    startupTaints: [{ key: 'agent', effect: 'NoExecute' }],
    cluster: CLUSTER,
    capacityType: 'spot',
    maxPods: 29,
  });
  return Buffer.from(userDataFor(amiFamily, options, 'default')).toString('base64');
}

const REGISTERED = {
  labels: {
    'karpenter.sh/capacity-type': 'spot',
    'karpenter.sh/nodepool': 'default',
    team: 'shop',
  },
  taints: [
    { key: 'dedicated', value: 'shop', effect: 'NoSchedule' },
    { key: 'agent', effect: 'NoExecute' },
    { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
  ],
  maxPods: 29,
};

describe('the kubelet registration a launch template gives', () => {
  it.each([
    ['AL2023', 'nodeadm NodeConfig', undefined],
    ['AL2023', "nodeadm NodeConfig after the class's own script", '#!/bin/bash\necho hi\n'],
    ['AL2', 'bootstrap.sh kubelet flags', undefined],
    [
      'AL2',
      "bootstrap.sh kubelet flags after the class's own script, which runs bootstrap.sh too",
      "#!/bin/bash\n/etc/eks/bootstrap.sh shop --kubelet-extra-args '--node-labels=team=other'\n",
    ],
    [
      'Bottlerocket',
      'Bottlerocket settings',
      '[settings.kubernetes]\nnode-labels = { team = "other" }\n',
    ],
  ] as const)('reads %s user data (%s)', (family, _form, custom) => {
    // Act
    const registration = kubeletRegistration(userData(family, custom));

    // Assess
    expect(registration).toEqual({ ...REGISTERED, amiFamily: family });
  });

  it('reads the kubelet flags of a bootstrap script', () => {
    // Prepare
    const script = `#!/bin/bash\n/etc/eks/bootstrap.sh shop --kubelet-extra-args '--node-labels="team=shop,tier=web" --register-with-taints=dedicated=shop:NoSchedule,agent:NoExecute --max-pods=17'\n`;

    // Act
    const registration = kubeletRegistration(Buffer.from(script).toString('base64'));

    // Assess
    expect(registration).toEqual({
      labels: { team: 'shop', tier: 'web' },
      taints: [
        { key: 'dedicated', value: 'shop', effect: 'NoSchedule' },
        { key: 'agent', effect: 'NoExecute' },
      ],
      maxPods: 17,
    });
  });

  it('registers with nothing when there is no user data', () => {
    // Act
    const registration = kubeletRegistration(undefined);

    // Assess
    expect(registration).toEqual({ labels: {}, taints: [] });
  });
});
