/**
 * AL2 user data, ported from Karpenter v1.14.1's launch template suite (aws:
 * pkg/providers/launchtemplate/suite_test.go, "User Data" and "AL2 Custom UserData") and its
 * goldens (pkg/providers/launchtemplate/testdata/al2_*.golden), with the suite's cluster.
 */
import { describe, expect, it } from 'vitest';
import {
  type BootstrapInput,
  bootstrapOptions,
} from '../../../functions/adapters/ec2/user-data/bootstrap-options.ts';
import { parseMime } from '../../../functions/adapters/ec2/user-data/mime.ts';
import { userDataFor } from '../../../functions/adapters/ec2/user-data/user-data.ts';
import type { LaunchableNodeClass } from '../../../functions/ports/cloud-provider.ts';
import { InvalidConfigError } from '../../../functions/ports/errors.ts';
import { aNodeClass } from './support.ts';

/** The cluster Karpenter's suite launches into. */
const TEST_CLUSTER = {
  name: 'test-cluster',
  region: 'us-west-2',
  kubernetesVersion: '1.31',
  endpoint: 'https://test-cluster',
  certificateAuthority: 'Y2EtYnVuZGxlCg==',
  clusterDns: '10.0.100.10',
};

function input(spec: Partial<LaunchableNodeClass['spec']> = {}): BootstrapInput {
  return {
    cluster: TEST_CLUSTER,
    nodeClass: aNodeClass({ amiSelectorTerms: [{ alias: 'al2@latest' }], ...spec }),
    labels: {
      'karpenter.k8s.aws/ec2nodeclass': 'default',
      'karpenter.sh/do-not-sync-taints': 'true',
      'karpenter.sh/nodepool': 'default',
      'testing/cluster': 'unspecified',
    },
    taints: [],
    startupTaints: [],
    capacityType: 'on-demand',
    maxPods: 110,
  };
}

function al2UserData(spec: Partial<LaunchableNodeClass['spec']> = {}): string {
  return userDataFor('AL2', bootstrapOptions(input(spec)), 'default');
}

/** The bootstrap part of al2_userdata_merged.golden and al2_userdata_unmerged.golden. */
const BOOTSTRAP_PART = [
  '--//',
  'Content-Type: text/x-shellscript; charset="us-ascii"',
  '',
  '#!/bin/bash -xe',
  'exec > >(tee /var/log/user-data.log|logger -t user-data -s 2>/dev/console) 2>&1',
  "/etc/eks/bootstrap.sh 'test-cluster' --apiserver-endpoint 'https://test-cluster' --b64-cluster-ca 'Y2EtYnVuZGxlCg==' \\",
  "--dns-cluster-ip '10.0.100.10' \\",
  '--use-max-pods false \\',
  `--kubelet-extra-args '--node-labels="karpenter.k8s.aws/ec2nodeclass=default,karpenter.sh/capacity-type=on-demand,karpenter.sh/do-not-sync-taints=true,karpenter.sh/nodepool=default,testing/cluster=unspecified" --register-with-taints="karpenter.sh/unregistered:NoExecute" --max-pods=110'`,
  '--//--',
  '',
].join('\n');

const HEADER = 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="//"\n\n';

/** al2_userdata_merged.golden: the user's script part, then the bootstrap part. */
const MERGED = `${HEADER}--//\nContent-Type: text/x-shellscript; charset="us-ascii"\n\n#!/bin/bash\necho "Running custom user data script"\n\n${BOOTSTRAP_PART}`;

const USER_SCRIPT = '#!/bin/bash\necho "Running custom user data script"\n';

describe('AL2 user data (bootstrap.sh)', () => {
  it('bootstraps with no custom user data as al2_userdata_unmerged.golden', () => {
    expect(al2UserData()).toBe(`${HEADER}${BOOTSTRAP_PART}`);
  });

  it.each([
    [
      'a MIME document (al2_userdata_input.golden)',
      `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="BOUNDARY"\n\n--BOUNDARY\nContent-Type: text/x-shellscript; charset="us-ascii"\n\n${USER_SCRIPT}\n--BOUNDARY--`,
    ],
    [
      'a MIME document whose Content-Type comes first (al2_userdata_content_type_first_input.golden)',
      `Content-Type: multipart/mixed; boundary="BOUNDARY"\nMIME-Version: 1.0\n\n--BOUNDARY\nContent-Type: text/x-shellscript; charset="us-ascii"\n\n${USER_SCRIPT}\n--BOUNDARY--`,
    ],
    ['a plain script (al2_no_mime_userdata_input.golden)', USER_SCRIPT],
  ])('merges %s before the bootstrap script as al2_userdata_merged.golden', (_, own) => {
    expect(al2UserData({ userData: own })).toBe(MERGED);
  });

  it('passes the maxPods the class sets, with --use-max-pods false', () => {
    // Act
    const text = al2UserData({ kubelet: { maxPods: 10 } });

    // Assess
    expect(text).toContain('--use-max-pods false');
    expect(text).toContain('--max-pods=10');
  });

  it("passes the class's kubelet settings as kubelet flags, map flags sorted by key", () => {
    // Prepare
    const kubelet = {
      podsPerCore: 2,
      systemReserved: { cpu: '2', memory: '3Gi', 'ephemeral-storage': '10Gi' },
      kubeReserved: { cpu: '1', memory: '1Gi' },
      evictionHard: { 'memory.available': '10%', 'nodefs.available': '15%' },
      evictionSoft: { 'memory.available': '10%' },
      evictionSoftGracePeriod: { 'memory.available': '1m' },
      evictionMaxPodGracePeriod: 300,
      imageGCHighThresholdPercent: 50,
      imageGCLowThresholdPercent: 20,
      cpuCFSQuota: false,
    };

    // Act
    const text = al2UserData({ kubelet });

    // Assess
    expect(text).toContain(
      [
        '--max-pods=110 --pods-per-core=2',
        '--system-reserved="cpu=2,ephemeral-storage=10Gi,memory=3Gi"',
        '--kube-reserved="cpu=1,memory=1Gi"',
        '--eviction-hard="memory.available<10%,nodefs.available<15%"',
        '--eviction-soft="memory.available<10%"',
        '--eviction-soft-grace-period="memory.available=1m"',
        '--eviction-max-pod-grace-period=300',
        '--image-gc-high-threshold=50 --image-gc-low-threshold=20',
        "--cpu-cfs-quota=false'",
      ].join(' '),
    );
  });

  it('names the IPv6 family when the cluster DNS IP is IPv6', () => {
    // Act
    const text = al2UserData({ kubelet: { clusterDNS: ['fd4b:121b:812b::a'] } });

    // Assess
    expect(text).toContain(
      "--b64-cluster-ca 'Y2EtYnVuZGxlCg==' \\\n--ip-family ipv6 \\\n--dns-cluster-ip 'fd4b:121b:812b::a' \\\n",
    );
  });

  it('asks for --local-disks raid0 under the RAID0 instance-store policy', () => {
    // Act
    const lines = al2UserData({ instanceStorePolicy: 'RAID0' }).split('\n');

    // Assess
    expect(lines.at(-4)).toMatch(/--max-pods=110' \\$/);
    expect(lines.at(-3)).toBe('--local-disks raid0');
  });

  it("keeps every part of the user's MIME document, headers included, in order", () => {
    // Prepare
    const own = [
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="B"',
      '',
      '--B',
      'Content-Type: text/cloud-config; charset="us-ascii"',
      '',
      'packages: [jq]',
      '--B',
      'Content-Type: text/x-shellscript; charset="us-ascii"',
      'Content-Transfer-Encoding: 7bit',
      '',
      'echo one',
      '--B--',
    ].join('\r\n');

    // Act
    const parts = parseMime(al2UserData({ userData: own }));

    // Assess
    expect(parts.map((p) => [p.headers, p.content.split('\n')[0]])).toEqual([
      [[['Content-Type', 'text/cloud-config; charset="us-ascii"']], 'packages: [jq]'],
      [
        [
          ['Content-Type', 'text/x-shellscript; charset="us-ascii"'],
          ['Content-Transfer-Encoding', '7bit'],
        ],
        'echo one',
      ],
      [[['Content-Type', 'text/x-shellscript; charset="us-ascii"']], '#!/bin/bash -xe'],
    ]);
  });

  it('refuses MIME user data that is not multi-part, naming the class', () => {
    expect(() =>
      al2UserData({ userData: 'MIME-Version: 1.0\nContent-Type: text/plain\n\nhi' }),
    ).toThrow(
      new InvalidConfigError(
        'merging the user data of ec2nodeclass default: spec.userData: user data is MIME but not multipart',
      ),
    );
  });
});
