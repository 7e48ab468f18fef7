import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import {
  type BootstrapInput,
  bootstrapOptions,
} from '../../../functions/adapters/ec2/user-data/bootstrap-options.ts';
import { parseMime } from '../../../functions/adapters/ec2/user-data/mime.ts';
import { userDataFor } from '../../../functions/adapters/ec2/user-data/user-data.ts';
import type { AmiFamily } from '../../../functions/domain/node-class.ts';
import type { LaunchableNodeClass } from '../../../functions/ports/cloud-provider.ts';
import { InvalidConfigError } from '../../../functions/ports/errors.ts';
import { aNodeClass, CLUSTER, generatedNodeConfig } from './support.ts';

function input(spec: Partial<LaunchableNodeClass['spec']> = {}): BootstrapInput {
  return {
    cluster: CLUSTER,
    nodeClass: aNodeClass({ instanceProfile: 'prod-nodes', role: undefined, ...spec }),
    labels: {
      'karpenter.sh/nodepool': 'default',
      'karpenter.k8s.aws/ec2nodeclass': 'default',
      team: 'platform',
      'node.kubernetes.io/instance-type': 'm5.large',
      'topology.kubernetes.io/zone': 'us-west-2a',
      'node-restriction.kubernetes.io/pci': 'true',
    },
    taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }],
    startupTaints: [{ key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NoExecute' }],
    capacityType: 'spot',
    maxPods: 29,
  };
}

/** A user's own MIME document, with CRLF line endings, a preamble and a transfer encoding. */
const USER_MIME = [
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="BOUNDARY"',
  '',
  'A preamble nobody reads.',
  '--BOUNDARY',
  'Content-Type: application/node.eks.aws',
  '',
  'apiVersion: node.eks.aws/v1alpha1',
  'kind: NodeConfig',
  'spec:',
  '  containerd:',
  '    config: |',
  '      [plugins."io.containerd.grpc.v1.cri".containerd]',
  '      discard_unpacked_layers = false',
  '--BOUNDARY',
  'Content-Type: text/x-shellscript; charset="us-ascii"',
  'Content-Transfer-Encoding: 7bit',
  '',
  '#!/bin/bash',
  'echo "custom"',
  '--BOUNDARY--',
  '',
].join('\r\n');

/** A user's Bottlerocket settings, some of which Nodesmith must overwrite. */
const USER_TOML = [
  '[settings.kubernetes]',
  'cluster-name = "someone-else"',
  'max-pods = 7',
  'image-gc-low-threshold-percent = "50"',
  '',
  '[settings.kubernetes.node-labels]',
  'team = "data"',
  '"example.com/owner" = "alice"',
  '',
  '[settings.kubernetes.node-taints]',
  'user = ["only:NoSchedule"]',
  '',
  '[settings.host-containers.admin]',
  'enabled = true',
  '',
  '[settings.ntp]',
  "time-servers = ['169.254.169.123']",
  '',
  '[settings.kernel.sysctl]',
  '"vm.max_map_count" = "262144"',
  'ratio = 0.5',
].join('\n');

/** Every TOML form a user may write, in settings Nodesmith does not own, and some it does. */
const EVERY_FORM_TOML = String.raw`
# Bottlerocket settings as users write them
[settings]
motd = "Hello \"node\"\tand \u00e9"

[settings.kubernetes]
"cluster-name" = 'someone-else'
shutdown-grace-period = """
30\
  s"""
provider-id = '''
raw \ text'''
registry-qps = 1_0
mask = 0o755
flags = 0xFF
bits = 0b101
ratio = 1.0
scale = -2.5e3
unset = -inf
node-labels.team = "data"
node-labels."example.com/owner" = "alice"
allowed-unsafe-sysctls = [
  "net.core.somaxconn", # first
  "net.ipv4.ip_local_port_range",
]
matrix = [[1, 2], ["x"]]
point = { x = 1, y = { z = true } }

[settings.updates]
maintenance-window = 1979-05-27T07:32:00Z

[[settings.container-registry.mirrors]]
registry = "docker.io"
endpoint = ["https://mirror.example.com"]

[[settings.container-registry.mirrors]]
registry = "quay.io"
`;

function userData(family: AmiFamily, spec: Partial<LaunchableNodeClass['spec']> = {}): string {
  return userDataFor(family, bootstrapOptions(input(spec)), 'default');
}

describe('AL2023 user data (nodeadm)', () => {
  it('generates a NodeConfig with the cluster, the kubelet settings and the registration taints', () => {
    // Act
    const config = generatedNodeConfig(userData('AL2023'));
    // Assess
    expect(config).toEqual({
      apiVersion: 'node.eks.aws/v1alpha1',
      kind: 'NodeConfig',
      spec: {
        cluster: {
          apiServerEndpoint: CLUSTER.endpoint,
          certificateAuthority: CLUSTER.certificateAuthority,
          cidr: '172.20.0.0/16',
          name: 'prod',
        },
        kubelet: {
          config: {
            clusterDNS: ['172.20.0.10'],
            maxPods: 29,
            registerWithTaints: [
              { key: 'dedicated', value: 'batch', effect: 'NoSchedule' },
              { key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NoExecute' },
              { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
            ],
          },
          flags: [
            '--node-labels="karpenter.k8s.aws/ec2nodeclass=default,karpenter.sh/capacity-type=spot,karpenter.sh/nodepool=default,team=platform"',
          ],
        },
      },
    });
  });

  it('registers without the labels of the cheapest option, which EC2 may fill with another', () => {
    // Prepare
    const predicted = {
      ...input(),
      labels: {
        ...input().labels,
        'karpenter.k8s.aws/instance-family': 'm5',
        'karpenter.k8s.aws/instance-cpu': '2',
        'topology.k8s.aws/zone-id': 'usw2-az1',
        'kubernetes.io/arch': 'amd64',
      },
    };
    // Act
    const options = bootstrapOptions(predicted);
    // Assess
    expect(options.labels).toEqual({
      'karpenter.k8s.aws/ec2nodeclass': 'default',
      'karpenter.sh/capacity-type': 'spot',
      'karpenter.sh/nodepool': 'default',
      team: 'platform',
    });
  });

  it('passes the EC2NodeClass kubelet settings through, its maxPods and clusterDNS winning', () => {
    // Prepare
    const kubelet = {
      maxPods: 110,
      clusterDNS: ['10.100.0.10'],
      systemReserved: { cpu: '100m', memory: '100Mi' },
      kubeReserved: { cpu: '200m' },
      evictionHard: { 'memory.available': '5%' },
      evictionSoft: { 'memory.available': '10%' },
      evictionSoftGracePeriod: { 'memory.available': '1m30s' },
      evictionMaxPodGracePeriod: 60,
      imageGCHighThresholdPercent: 85,
      imageGCLowThresholdPercent: 80,
      cpuCFSQuota: false,
      podsPerCore: 10,
    };
    // Act
    const config = generatedNodeConfig(
      userData('AL2023', { kubelet, instanceStorePolicy: 'RAID0' }),
    );
    // Assess
    expect(config.spec.kubelet.config).toMatchObject(kubelet);
    expect(config.spec.instance).toEqual({ localStorage: { strategy: 'RAID0' } });
  });

  it("keeps a user's shell script as its own part before the generated NodeConfig", () => {
    // Act
    const parts = parseMime(userData('AL2023', { userData: '#!/bin/bash\necho "hello"\n' }));
    // Assess
    expect(parts.map((part) => part.headers)).toEqual([
      [['Content-Type', 'text/x-shellscript; charset="us-ascii"']],
      [['Content-Type', 'application/node.eks.aws']],
    ]);
    expect(parts[0]?.content).toBe('#!/bin/bash\necho "hello"\n');
  });

  it("keeps a user's own NodeConfig as a NodeConfig part that the generated one follows", () => {
    // Prepare
    const own =
      'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      shutdownGracePeriod: 30s\n';
    // Act
    const parts = parseMime(userData('AL2023', { userData: own }));
    // Assess
    expect(parts).toHaveLength(2);
    expect(parts[0]).toEqual({
      headers: [['Content-Type', 'application/node.eks.aws']],
      content: own,
    });
  });

  it("merges a user's MIME document part by part, in order, before the generated NodeConfig", () => {
    // Prepare
    const own = USER_MIME;
    // Act
    const parts = parseMime(userData('AL2023', { userData: own }));
    // Assess
    expect(parts.map((part) => part.headers[0]?.[1])).toEqual([
      'application/node.eks.aws',
      'text/x-shellscript; charset="us-ascii"',
      'application/node.eks.aws',
    ]);
    expect(parts[0]?.content).toContain('discard_unpacked_layers = false');
    expect(parts[1]).toEqual({
      headers: [
        ['Content-Type', 'text/x-shellscript; charset="us-ascii"'],
        ['Content-Transfer-Encoding', '7bit'],
      ],
      content: '#!/bin/bash\necho "custom"',
    });
    expect(parts[2]?.content).toMatch(/^# Nodesmith generated NodeConfig\n/);
  });

  it('writes the document in the layout nodeadm and cloud-init read', () => {
    // Act
    const text = userData('AL2023', { userData: '#!/bin/bash\ntrue' });
    // Assess
    expect(text).toMatch(
      /^MIME-Version: 1\.0\nContent-Type: multipart\/mixed; boundary="\/\/"\n\n--\/\/\nContent-Type: text\/x-shellscript; charset="us-ascii"\n\n#!\/bin\/bash\ntrue\n--\/\/\nContent-Type: application\/node\.eks\.aws\n\n# Nodesmith generated NodeConfig\n/,
    );
    expect(text.endsWith('\n--//--\n')).toBe(true);
  });

  it('refuses MIME user data that is not multi-part', () => {
    // Act
    const generating = () => userData('AL2023', { userData: 'Content-Type: text/plain\n\nhello' });
    // Assess
    expect(generating).toThrow(InvalidConfigError);
    expect(generating).toThrow(/merging the user data of ec2nodeclass default/);
  });
});

describe('Bottlerocket user data (TOML)', () => {
  it('writes the cluster, kubelet settings, labels and taints into settings.kubernetes', () => {
    // Act
    const settings = parseToml(
      userData('Bottlerocket', {
        kubelet: {
          systemReserved: { cpu: '100m' },
          evictionHard: { 'memory.available': '5%' },
          imageGCHighThresholdPercent: 85,
        },
      }),
    );
    // Assess
    expect(settings).toEqual({
      settings: {
        kubernetes: {
          'cluster-name': 'prod',
          'api-server': CLUSTER.endpoint,
          'cluster-certificate': CLUSTER.certificateAuthority,
          'max-pods': 29,
          'cluster-dns-ip': '172.20.0.10',
          'system-reserved': { cpu: '100m' },
          'eviction-hard': { 'memory.available': '5%' },
          'image-gc-high-threshold-percent': '85',
          'node-labels': {
            'karpenter.k8s.aws/ec2nodeclass': 'default',
            'karpenter.sh/capacity-type': 'spot',
            'karpenter.sh/nodepool': 'default',
            team: 'platform',
          },
          'node-taints': {
            dedicated: ['batch:NoSchedule'],
            'node.cilium.io/agent-not-ready': ['true:NoExecute'],
            'karpenter.sh/unregistered': [':NoExecute'],
          },
        },
      },
    });
  });

  it("keeps the user's settings and labels, Nodesmith's required keys winning", () => {
    // Prepare
    const own = USER_TOML;
    // Act
    const settings = parseToml(userData('Bottlerocket', { userData: own })).settings as Record<
      string,
      Record<string, unknown>
    >;
    // Assess
    expect(settings.kubernetes).toMatchObject({
      'cluster-name': 'prod',
      'max-pods': 29,
      'image-gc-low-threshold-percent': '50',
      'node-labels': {
        team: 'platform',
        'example.com/owner': 'alice',
        'karpenter.sh/capacity-type': 'spot',
      },
      'node-taints': {
        dedicated: ['batch:NoSchedule'],
        'node.cilium.io/agent-not-ready': ['true:NoExecute'],
        'karpenter.sh/unregistered': [':NoExecute'],
      },
    });
    expect(settings['host-containers']).toEqual({ admin: { enabled: true } });
    expect(settings.ntp).toEqual({ 'time-servers': ['169.254.169.123'] });
    expect(settings.kernel).toEqual({
      sysctl: { 'vm.max_map_count': '262144', ratio: 0.5 },
    });
  });

  it('mounts instance storage as ephemeral storage under a RAID0 policy', () => {
    // Act
    const settings = parseToml(userData('Bottlerocket', { instanceStorePolicy: 'RAID0' }))
      .settings as Record<string, unknown>;
    // Assess
    const bootstrap = settings['bootstrap-commands'] as Record<string, { commands: string[][] }>;
    expect(Object.keys(bootstrap)).toEqual(['000-mount-instance-storage']);
    const { commands, ...how } = bootstrap['000-mount-instance-storage'] ?? { commands: [] };
    // Read as the command lines Bottlerocket runs at every boot, init before bind.
    expect(commands.map((argv) => argv.join(' '))).toEqual([
      'apiclient ephemeral-storage init',
      'apiclient ephemeral-storage bind --dirs /var/lib/containerd /var/lib/kubelet /var/log/pods',
    ]);
    expect(how).toEqual({ mode: 'always', essential: true });
  });

  it('keeps every TOML form the user wrote: strings, numbers, arrays, inline tables, dates', () => {
    // Act
    const text = userData('Bottlerocket', { userData: EVERY_FORM_TOML });
    // Assess
    const settings = parseToml(text).settings as Record<string, Record<string, unknown>>;
    expect(settings.motd).toBe('Hello "node"\tand é');
    expect(settings.kubernetes).toMatchObject({
      'cluster-name': 'prod',
      'shutdown-grace-period': '30s',
      'provider-id': 'raw \\ text',
      'registry-qps': 10,
      mask: 0o755,
      flags: 255,
      bits: 5,
      ratio: 1,
      scale: -2500,
      unset: Number.NEGATIVE_INFINITY,
      'node-labels': { team: 'platform', 'example.com/owner': 'alice' },
      'allowed-unsafe-sysctls': ['net.core.somaxconn', 'net.ipv4.ip_local_port_range'],
      matrix: [[1, 2], ['x']],
      point: { x: 1, y: { z: true } },
    });
    expect(settings.updates?.['maintenance-window']).toEqual(new Date('1979-05-27T07:32:00Z'));
    expect(settings['container-registry']).toEqual({
      mirrors: [
        { registry: 'docker.io', endpoint: ['https://mirror.example.com'] },
        { registry: 'quay.io' },
      ],
    });
  });

  it("writes the user's floats as floats and integers as integers", () => {
    // Act
    const lines = userData('Bottlerocket', { userData: EVERY_FORM_TOML }).split('\n');
    // Assess
    expect(lines).toEqual(
      expect.arrayContaining(['ratio = 1.0', 'scale = -2500.0', 'unset = -inf', 'mask = 493']),
    );
    expect(lines).toEqual(expect.arrayContaining(['max-pods = 29', 'registry-qps = 10']));
  });

  it('writes the same settings as the same bytes, the user tables first', () => {
    // Act
    const text = userDataFor(
      'Bottlerocket',
      {
        cluster: { ...CLUSTER, certificateAuthority: 'Q0E=' },
        kubelet: { maxPods: 29, clusterDNS: ['172.20.0.10', '172.20.0.11'] },
        taints: [{ key: 'karpenter.sh/unregistered', effect: 'NoExecute' }],
        labels: { 'karpenter.sh/capacity-type': 'spot' },
        customUserData: '[settings.kernel.sysctl]\n"vm.max_map_count" = "262144"\n',
      },
      'default',
    );
    // Assess
    expect(text).toBe(
      [
        '[settings.kernel.sysctl]',
        '"vm.max_map_count" = "262144"',
        '',
        '[settings.kubernetes]',
        'cluster-name = "prod"',
        `api-server = "${CLUSTER.endpoint}"`,
        'cluster-certificate = "Q0E="',
        'max-pods = 29',
        'cluster-dns-ip = [ "172.20.0.10", "172.20.0.11" ]',
        '',
        '[settings.kubernetes.node-labels]',
        '"karpenter.sh/capacity-type" = "spot"',
        '',
        '[settings.kubernetes.node-taints]',
        '"karpenter.sh/unregistered" = [ ":NoExecute" ]',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['a table header left open', '[settings\nfoo = '],
    ['a key defined twice', 'a = 1\na = 2'],
    ['a table defined twice', '[a]\nx = 1\n[a]\ny = 2'],
    ['an unterminated string', 'a = "open'],
    ['two values on one line', 'a = 1 b = 2'],
    ['a missing value', 'a = '],
    ['an inline table extended later', 'a = { x = 1 }\na.y = 2'],
  ])("refuses user data with %s, naming the class's spec.userData and the line", (_, own) => {
    // Act
    let error: unknown;
    try {
      userData('Bottlerocket', { userData: own });
    } catch (err) {
      error = err;
    }
    // Assess
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as InvalidConfigError).message).toMatch(
      /^merging the user data of ec2nodeclass default: spec\.userData is not valid TOML: [^\n]+ \(line \d+, column \d+\)$/,
    );
    expect((error as InvalidConfigError).cause).toBeInstanceOf(Error);
  });
});

describe('Windows user data', () => {
  it("writes Karpenter's PowerShell bootstrap with labels, taints, max pods and cluster DNS", () => {
    // Act
    const script = userData('Windows2022');

    // Assess
    expect(script.split('\n')).toEqual([
      '<powershell>',
      '[string]$EKSBootstrapScriptFile = "$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1"',
      `& $EKSBootstrapScriptFile -EKSClusterName 'prod' -APIServerEndpoint '${CLUSTER.endpoint}' -Base64ClusterCA '${CLUSTER.certificateAuthority}' -KubeletExtraArgs '--node-labels="karpenter.k8s.aws/ec2nodeclass=default,karpenter.sh/capacity-type=spot,karpenter.sh/nodepool=default,team=platform" --register-with-taints="dedicated=batch:NoSchedule,node.cilium.io/agent-not-ready=true:NoExecute,karpenter.sh/unregistered:NoExecute" --max-pods=29' -DNSClusterIP '172.20.0.10'`,
      '</powershell>',
    ]);
  });

  it("runs the class's own script first, inside the same block, and passes kubelet settings", () => {
    // Prepare
    const own = 'Write-Host "Running custom user data script"';
    const kubelet = {
      maxPods: 110,
      kubeReserved: { memory: '1465Mi', cpu: '80m' },
      evictionHard: { 'memory.available': '5%' },
      clusterDNS: ['10.0.100.10'],
    };

    // Act
    const lines = userData('Windows2019', { userData: own, kubelet }).split('\n');

    // Assess
    expect(lines.slice(0, 3)).toEqual([
      '<powershell>',
      own,
      '[string]$EKSBootstrapScriptFile = "$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1"',
    ]);
    expect(lines[3]).toContain(
      `--max-pods=110 --kube-reserved="cpu=80m,memory=1465Mi" --eviction-hard="memory.available<5%"' -DNSClusterIP '10.0.100.10'`,
    );
    expect(lines[4]).toBe('</powershell>');
  });
});

describe('user data of other AMI families', () => {
  it("passes a Custom AMI's user data through unchanged", () => {
    expect(userData('Custom', { userData: '#!/bin/bash\n/etc/eks/bootstrap.sh prod' })).toBe(
      '#!/bin/bash\n/etc/eks/bootstrap.sh prod',
    );
  });
});
