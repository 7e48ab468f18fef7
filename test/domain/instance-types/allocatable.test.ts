import { describe, expect, it } from 'vitest';
import { aNodeClass, buildOne, Gi, Mi } from './builders.ts';

describe('allocatable (Karpenter §11 worked examples)', () => {
  it('estimates 1930m CPU and 6903Mi memory for m5.large', () => {
    // Prepare
    const name = 'm5.large';

    // Act
    const m5 = buildOne(name);

    // Assess
    expect(m5.capacity).toEqual({
      cpu: 2000,
      memory: 7577 * Mi,
      'ephemeral-storage': 20 * Gi,
      pods: 29,
      'vpc.amazonaws.com/pod-eni': 9,
    });
    expect(m5.overhead).toEqual({ cpu: 70, memory: (574 + 100) * Mi, 'ephemeral-storage': 3 * Gi });
    expect(m5.allocatable).toMatchObject({ cpu: 1930, memory: 6903 * Mi, pods: 29 });
  });

  it('estimates 3920m CPU and 14103Mi memory for the Graviton m6g.xlarge', () => {
    // Prepare
    const name = 'm6g.xlarge';

    // Act
    const m6g = buildOne(name);

    // Assess
    expect(m6g.capacity).toMatchObject({ cpu: 4000, memory: 15096 * Mi, pods: 58 });
    expect(m6g.overhead).toMatchObject({ cpu: 80, memory: (893 + 100) * Mi });
    expect(m6g.allocatable).toMatchObject({ cpu: 3920, memory: 14103 * Mi });
  });

  it('leaves exactly 17Gi of a 20Gi gp3 root volume as allocatable ephemeral storage', () => {
    // Prepare
    const nodeClass = aNodeClass({
      blockDeviceMappings: [
        {
          deviceName: '/dev/xvda',
          rootVolume: true,
          ebs: { volumeSize: '20Gi', volumeType: 'gp3' },
        },
      ],
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess: 20Gi − 1Gi kube-reserved − 10 % (2Gi) nodefs eviction threshold.
    expect(m5.capacity['ephemeral-storage']).toBe(20 * Gi);
    expect(m5.allocatable['ephemeral-storage']).toBe(17 * Gi);
    expect(m5.allocatable['ephemeral-storage']).toBe(18_253_611_008);
  });
});

describe('memory capacity', () => {
  it('takes 64Mi for the Graviton CMA before the 7.5 % VM overhead on arm64', () => {
    // Prepare
    const arm = 'm6g.xlarge';

    // Act
    const m6g = buildOne(arm);
    const m5 = buildOne('m5.xlarge');

    // Assess: (16384 − 64) − ceil(16320 × 7.5 %) versus 16384 − ceil(16384 × 7.5 %).
    expect(m6g.capacity.memory).toBe((16320 - 1224) * Mi);
    expect(m5.capacity.memory).toBe((16384 - 1229) * Mi);
  });

  it('applies a configured VM memory overhead, rounded up to whole MiB', () => {
    // Prepare
    const vmMemoryOverheadPercent = 0.1;

    // Act
    const m5 = buildOne('m5.large', { vmMemoryOverheadPercent });
    const bare = buildOne('m5.large', { vmMemoryOverheadPercent: 0 });

    // Assess: ceil(819.2) = 820.
    expect(m5.capacity.memory).toBe((8192 - 820) * Mi);
    expect(bare.capacity.memory).toBe(8192 * Mi);
  });
});

describe('kube-reserved', () => {
  it.each([
    ['t3.nano', 60 + 10],
    ['m5.xlarge', 60 + 10 + 10],
    ['m5.2xlarge', 60 + 10 + 10 + 10],
    ['m5.24xlarge', 60 + 10 + 10 + 230],
  ])('reserves CPU for %s by the per-core bands (%dm)', (name, millis) => {
    // Prepare: 6 % of core 1, 1 % of core 2, 0.5 % of cores 3–4, 0.25 % of the rest.

    // Act
    const instanceType = buildOne(name);

    // Assess
    expect(instanceType.overhead.cpu).toBe(millis);
  });

  it('replaces each default with the kubelet.kubeReserved value of the same resource', () => {
    // Prepare
    const nodeClass = aNodeClass({ kubelet: { kubeReserved: { cpu: '200m', memory: '1Gi' } } });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess: ephemeral-storage keeps its 1Gi default.
    expect(m5.overhead).toEqual({
      cpu: 200,
      memory: (1024 + 100) * Mi,
      'ephemeral-storage': 3 * Gi,
    });
    expect(m5.allocatable).toMatchObject({ cpu: 1800, memory: (7577 - 1024 - 100) * Mi });
  });

  it('sizes kube-reserved memory from ENI-limited pods on AL2023 even when maxPods is set', () => {
    // Prepare
    const nodeClass = aNodeClass({ amiFamily: 'AL2023', kubelet: { maxPods: 110 } });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity.pods).toBe(110);
    expect(m5.allocatable.memory).toBe(6903 * Mi);
  });

  it('sizes kube-reserved memory from max pods on Bottlerocket', () => {
    // Prepare
    const nodeClass = aNodeClass({ amiFamily: 'Bottlerocket', kubelet: { maxPods: 110 } });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess: 11Mi × 110 + 255Mi.
    expect(m5.overhead.memory).toBe((1465 + 100) * Mi);
  });
});

describe('system-reserved', () => {
  it('subtracts kubelet.systemReserved, which is empty by default', () => {
    // Prepare
    const nodeClass = aNodeClass({
      kubelet: { systemReserved: { cpu: '100m', memory: '100Mi', 'ephemeral-storage': '1Gi' } },
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.allocatable).toMatchObject({
      cpu: 1830,
      memory: 6803 * Mi,
      'ephemeral-storage': 16 * Gi,
    });
  });
});

describe('eviction threshold', () => {
  it('uses absolute evictionHard quantities for memory and nodefs', () => {
    // Prepare
    const nodeClass = aNodeClass({
      kubelet: { evictionHard: { 'memory.available': '500Mi', 'nodefs.available': '1Gi' } },
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.allocatable).toMatchObject({
      memory: (7577 - 574 - 500) * Mi,
      'ephemeral-storage': 18 * Gi,
    });
  });

  it('reads evictionHard percentages against capacity, rounded up to a byte', () => {
    // Prepare
    const nodeClass = aNodeClass({
      kubelet: { evictionHard: { 'memory.available': '5%', 'nodefs.available': '15%' } },
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess: ceil(7577Mi × 5 %) = 397253018 bytes; 15 % of 20Gi = 3Gi.
    expect(m5.overhead.memory).toBe(574 * Mi + 397_253_018);
    expect(m5.allocatable['ephemeral-storage']).toBe(16 * Gi);
  });

  it('treats an evictionHard of 100% as a disabled threshold', () => {
    // Prepare
    const nodeClass = aNodeClass({ kubelet: { evictionHard: { 'memory.available': '100%' } } });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.allocatable.memory).toBe((7577 - 574) * Mi);
  });

  it('ignores evictionSoft, which kubelet does not subtract from allocatable', () => {
    // Prepare
    const nodeClass = aNodeClass({
      kubelet: {
        evictionSoft: { 'memory.available': '1Gi', 'nodefs.available': '50%' },
        evictionHard: { 'memory.available': '200Mi' },
      },
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.allocatable).toMatchObject({
      memory: (7577 - 574 - 200) * Mi,
      'ephemeral-storage': 17 * Gi,
    });
  });

  it('rejects an evictionHard percentage that is not a number', () => {
    // Prepare
    const nodeClass = aNodeClass({ kubelet: { evictionHard: { 'memory.available': 'ten%' } } });

    // Act
    const build = () => buildOne('m5.large', { nodeClass });

    // Assess
    expect(build).toThrow('evictionHard memory.available: "ten%" is not a percentage');
  });
});
