import { describe, expect, it } from 'vitest';
import {
  compatibilityReason,
  fromNodeSelector,
} from '../../../functions/domain/requirements/requirements.ts';
import { aNodeClass, buildOne, labelsOf } from './builders.ts';

const DOES_NOT_EXIST = 'DoesNotExist';

describe('instance type requirements', () => {
  it('describes m5.large with every well-known label Karpenter sets', () => {
    // Prepare
    const name = 'm5.large';

    // Act
    const m5 = buildOne(name);

    // Assess
    expect(labelsOf(m5.requirements)).toEqual({
      'node.kubernetes.io/instance-type': ['m5.large'],
      'kubernetes.io/arch': ['amd64'],
      'kubernetes.io/os': ['linux'],
      'node.kubernetes.io/windows-build': DOES_NOT_EXIST,
      'topology.kubernetes.io/region': ['us-east-1'],
      'topology.kubernetes.io/zone': ['us-east-1a', 'us-east-1b', 'us-east-1c'],
      'karpenter.sh/capacity-type': ['on-demand', 'spot'],
      'karpenter.k8s.aws/instance-category': ['m'],
      'karpenter.k8s.aws/instance-family': ['m5'],
      'karpenter.k8s.aws/instance-generation': ['5'],
      'karpenter.k8s.aws/instance-size': ['large'],
      'karpenter.k8s.aws/instance-capability-flex': ['false'],
      'karpenter.k8s.aws/instance-cpu': ['2'],
      'karpenter.k8s.aws/instance-cpu-manufacturer': ['intel'],
      'karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz': ['3100'],
      'karpenter.k8s.aws/instance-memory': ['8192'],
      'karpenter.k8s.aws/instance-network-bandwidth': ['750'],
      'karpenter.k8s.aws/instance-ebs-bandwidth': ['4750'],
      'karpenter.k8s.aws/instance-local-nvme': DOES_NOT_EXIST,
      'karpenter.k8s.aws/instance-hypervisor': ['nitro'],
      'karpenter.k8s.aws/instance-encryption-in-transit-supported': ['false'],
      'karpenter.k8s.aws/instance-tenancy': ['default'],
      'karpenter.k8s.aws/instance-gpu-name': DOES_NOT_EXIST,
      'karpenter.k8s.aws/instance-gpu-manufacturer': DOES_NOT_EXIST,
      'karpenter.k8s.aws/instance-gpu-count': DOES_NOT_EXIST,
      'karpenter.k8s.aws/instance-gpu-memory': DOES_NOT_EXIST,
      'karpenter.k8s.aws/instance-accelerator-name': DOES_NOT_EXIST,
      'karpenter.k8s.aws/instance-accelerator-manufacturer': DOES_NOT_EXIST,
      'karpenter.k8s.aws/instance-accelerator-count': DOES_NOT_EXIST,
      'karpenter.k8s.aws/capacity-reservation-id': DOES_NOT_EXIST,
      'karpenter.k8s.aws/capacity-reservation-type': DOES_NOT_EXIST,
      'karpenter.k8s.aws/capacity-reservation-interruptible': DOES_NOT_EXIST,
    });
  });

  it('labels a GPU type with its GPU name, manufacturer, count and per-GPU memory in MiB', () => {
    // Prepare
    const name = 'p3.8xlarge';

    // Act
    const p3 = buildOne(name);

    // Assess
    expect(labelsOf(p3.requirements)).toMatchObject({
      'karpenter.k8s.aws/instance-gpu-name': ['v100'],
      'karpenter.k8s.aws/instance-gpu-manufacturer': ['nvidia'],
      'karpenter.k8s.aws/instance-gpu-count': ['4'],
      'karpenter.k8s.aws/instance-gpu-memory': ['16384'],
      'karpenter.k8s.aws/instance-hypervisor': ['xen'],
      'karpenter.k8s.aws/instance-accelerator-name': DOES_NOT_EXIST,
    });
  });

  it('labels Neuron types with their accelerator name, manufacturer and device count', () => {
    // Prepare
    const name = 'inf2.24xlarge';

    // Act
    const inf2 = buildOne(name);

    // Assess
    expect(labelsOf(inf2.requirements)).toMatchObject({
      'karpenter.k8s.aws/instance-accelerator-name': ['inferentia2'],
      'karpenter.k8s.aws/instance-accelerator-manufacturer': ['aws'],
      'karpenter.k8s.aws/instance-accelerator-count': ['6'],
      'karpenter.k8s.aws/instance-gpu-name': DOES_NOT_EXIST,
    });
  });

  it('labels local NVMe in GB and flex types as flex', () => {
    // Prepare
    const names = ['m5d.large', 'm7i-flex.large'] as const;

    // Act
    const [m5d, flex] = names.map((name) => buildOne(name));

    // Assess
    expect(labelsOf(m5d?.requirements ?? new Map())).toMatchObject({
      'karpenter.k8s.aws/instance-local-nvme': ['75'],
      'karpenter.k8s.aws/instance-capability-flex': ['false'],
    });
    expect(labelsOf(flex?.requirements ?? new Map())).toMatchObject({
      'karpenter.k8s.aws/instance-capability-flex': ['true'],
      'karpenter.k8s.aws/instance-family': ['m7i-flex'],
    });
  });

  it('labels bare metal with the empty hypervisor EC2 reports for it', () => {
    // Prepare
    const name = 'm5.metal';

    // Act
    const metal = buildOne(name);

    // Assess
    expect(labelsOf(metal.requirements)['karpenter.k8s.aws/instance-hypervisor']).toEqual(['']);
  });

  it('labels Windows nodes with os windows and the Windows build', () => {
    // Prepare
    const nodeClass = aNodeClass({ amiFamily: 'Windows2022' });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(labelsOf(m5.requirements)).toMatchObject({
      'kubernetes.io/os': ['windows'],
      'node.kubernetes.io/windows-build': ['10.0.20348'],
    });
  });

  it('offers no OS for arm64 types under a Windows AMI family', () => {
    // Prepare
    const nodeClass = aNodeClass({ amiFamily: 'Windows2025' });
    const linuxPod = fromNodeSelector([
      { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
    ]);
    const windowsPod = fromNodeSelector([
      { key: 'kubernetes.io/os', operator: 'In', values: ['windows'] },
    ]);

    // Act
    const m6g = buildOne('m6g.large', { nodeClass });

    // Assess
    expect(compatibilityReason(m6g.requirements, linuxPod)).toMatch(/kubernetes\.io\/os/);
    expect(compatibilityReason(m6g.requirements, windowsPod)).toMatch(/kubernetes\.io\/os/);
  });

  it('keeps pods that require a GPU label off types without GPUs', () => {
    // Prepare
    const gpuPod = fromNodeSelector([
      { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'Exists' },
    ]);

    // Act
    const m5 = buildOne('m5.large');
    const p3 = buildOne('p3.2xlarge');

    // Assess
    expect(compatibilityReason(m5.requirements, gpuPod)).toMatch(/instance-gpu-count/);
    expect(compatibilityReason(p3.requirements, gpuPod)).toBeUndefined();
  });

  it('lets numeric labels be selected with Gt and Lt', () => {
    // Prepare
    const bigPod = fromNodeSelector([
      { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gt', values: ['3'] },
      { key: 'karpenter.k8s.aws/instance-memory', operator: 'Lt', values: ['20000'] },
    ]);

    // Act
    const m5 = buildOne('m5.large');
    const m5x = buildOne('m5.xlarge');

    // Assess
    expect(compatibilityReason(m5.requirements, bigPod)).toMatch(/instance-cpu/);
    expect(compatibilityReason(m5x.requirements, bigPod)).toBeUndefined();
  });

  it('adds zone ids when the subnets’ zone ids are known, and leaves the label open otherwise', () => {
    // Prepare
    const zoneIds = {
      'us-east-1a': 'use1-az4',
      'us-east-1b': 'use1-az6',
      'us-east-1c': 'use1-az1',
    };

    // Act
    const withIds = buildOne('m5.large', { zoneIds });
    const withoutIds = buildOne('m5.large');

    // Assess
    expect(labelsOf(withIds.requirements)['topology.k8s.aws/zone-id']).toEqual([
      'use1-az1',
      'use1-az4',
      'use1-az6',
    ]);
    expect(withoutIds.requirements.has('topology.k8s.aws/zone-id')).toBe(false);
  });
});
