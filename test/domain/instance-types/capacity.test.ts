import { describe, expect, it } from 'vitest';
import { aNodeClass, buildOne, Gi } from './builders.ts';

const PRIMARY = { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' } as const;
const EFA_ONLY_0_1 = { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only' } as const;

describe('ephemeral-storage capacity', () => {
  it('defaults to a 20Gi root volume', () => {
    // Prepare
    const name = 'm5.large';

    // Act
    const m5 = buildOne(name);

    // Assess
    expect(m5.capacity['ephemeral-storage']).toBe(20 * Gi);
  });

  it('uses the block device mapping marked rootVolume', () => {
    // Prepare
    const nodeClass = aNodeClass({
      blockDeviceMappings: [
        { deviceName: '/dev/xvdc', ebs: { volumeSize: '500Gi' } },
        { deviceName: '/dev/xvda', rootVolume: true, ebs: { volumeSize: '100Gi' } },
      ],
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess: 100Gi − 1Gi − 10Gi.
    expect(m5.capacity['ephemeral-storage']).toBe(100 * Gi);
    expect(m5.allocatable['ephemeral-storage']).toBe(89 * Gi);
  });

  it('uses the AMI family’s root device when no mapping is marked rootVolume', () => {
    // Prepare
    const nodeClass = aNodeClass({
      amiFamily: 'AL2',
      blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: { volumeSize: '40Gi' } }],
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity['ephemeral-storage']).toBe(40 * Gi);
  });

  it('uses the data volume /dev/xvdb on Bottlerocket, not its small OS volume', () => {
    // Prepare
    const nodeClass = aNodeClass({
      amiFamily: 'Bottlerocket',
      blockDeviceMappings: [
        { deviceName: '/dev/xvda', ebs: { volumeSize: '4Gi' } },
        { deviceName: '/dev/xvdb', ebs: { volumeSize: '80Gi' } },
      ],
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });
    const unmapped = buildOne('m5.large', { nodeClass: aNodeClass({ amiFamily: 'Bottlerocket' }) });

    // Assess
    expect(m5.capacity['ephemeral-storage']).toBe(80 * Gi);
    expect(unmapped.capacity['ephemeral-storage']).toBe(20 * Gi);
  });

  it('uses the last mapping for a custom AMI, whose layout is unknown', () => {
    // Prepare
    const nodeClass = aNodeClass({
      amiFamily: 'Custom',
      blockDeviceMappings: [
        { deviceName: '/dev/xvda', ebs: { volumeSize: '10Gi' } },
        { deviceName: '/dev/xvdb', ebs: { volumeSize: '60Gi' } },
      ],
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity['ephemeral-storage']).toBe(60 * Gi);
  });

  it('uses the default volume for a custom AMI whose last mapping has no size', () => {
    // Prepare
    const nodeClass = aNodeClass({
      amiFamily: 'Custom',
      blockDeviceMappings: [
        { deviceName: '/dev/xvda', ebs: { volumeSize: '10Gi' } },
        { deviceName: '/dev/xvdb', ebs: { snapshotID: 'snap-0123456789abcdef0' } },
      ],
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity['ephemeral-storage']).toBe(20 * Gi);
  });

  it('falls back to the default when no mapping is for the ephemeral device', () => {
    // Prepare
    const nodeClass = aNodeClass({
      blockDeviceMappings: [{ deviceName: '/dev/xvdf', ebs: { volumeSize: '300Gi' } }],
    });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity['ephemeral-storage']).toBe(20 * Gi);
  });

  it('defaults to the 50Gi /dev/sda1 volume on Windows', () => {
    // Prepare
    const nodeClass = aNodeClass({ amiFamily: 'Windows2022' });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity['ephemeral-storage']).toBe(50 * Gi);
  });

  it('uses local NVMe instance storage (in GB) under instanceStorePolicy RAID0', () => {
    // Prepare
    const nodeClass = aNodeClass({ instanceStorePolicy: 'RAID0' });

    // Act
    const m5d = buildOne('m5d.large', { nodeClass });
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess: 75 GB; 75 GB − 1Gi − 10 %. Types without NVMe keep their EBS volume.
    expect(m5d.capacity['ephemeral-storage']).toBe(75_000_000_000);
    expect(m5d.allocatable['ephemeral-storage']).toBe(75_000_000_000 - Gi - 7_500_000_000);
    expect(m5.capacity['ephemeral-storage']).toBe(20 * Gi);
  });
});

describe('extended resources', () => {
  it('advertises NVIDIA GPUs and EFA interfaces', () => {
    // Prepare
    const name = 'p4d.24xlarge';

    // Act
    const p4d = buildOne(name);

    // Assess
    expect(p4d.capacity).toMatchObject({ 'nvidia.com/gpu': 8, 'vpc.amazonaws.com/efa': 4 });
    expect(p4d.allocatable).toMatchObject({ 'nvidia.com/gpu': 8, 'vpc.amazonaws.com/efa': 4 });
  });

  // aws: pkg/providers/instancetype/types.go `efas`
  it.each([
    ['one EFA-only interface', [PRIMARY, EFA_ONLY_0_1], 1],
    ['no EFA-only interface', [PRIMARY], undefined],
  ] as const)(
    'advertises as many EFA interfaces as the class spells out: %s',
    (_case, networkInterfaces, expected) => {
      // Prepare
      const nodeClass = aNodeClass({ networkInterfaces });

      // Act
      const p4d = buildOne('p4d.24xlarge', { nodeClass });

      // Assess
      expect(p4d.capacity['vpc.amazonaws.com/efa']).toBe(expected);
    },
  );

  it('advertises AMD GPUs and Habana Gaudi accelerators under their own resources', () => {
    // Prepare
    const names = ['g4ad.16xlarge', 'dl1.24xlarge'] as const;

    // Act
    const [g4ad, dl1] = names.map((name) => buildOne(name));

    // Assess
    expect(g4ad?.capacity).toMatchObject({ 'amd.com/gpu': 4 });
    expect(g4ad?.capacity).not.toHaveProperty(['nvidia.com/gpu']);
    expect(dl1?.capacity).toMatchObject({ 'habana.ai/gaudi': 8 });
  });

  it('advertises Neuron devices and NeuronCores for Inferentia and Trainium', () => {
    // Prepare
    const names = ['inf2.xlarge', 'trn2.48xlarge'] as const;

    // Act
    const [inf2, trn2] = names.map((name) => buildOne(name));

    // Assess
    expect(inf2?.capacity).toMatchObject({
      'aws.amazon.com/neuron': 1,
      'aws.amazon.com/neuroncore': 2,
    });
    expect(trn2?.capacity).toMatchObject({
      'aws.amazon.com/neuron': 16,
      'aws.amazon.com/neuroncore': 128,
    });
  });

  it('does not count a non-Neuron inference accelerator as a Neuron device', () => {
    // Prepare
    const name = 'dl2q.24xlarge';

    // Act
    const dl2q = buildOne(name);

    // Assess
    expect(dl2q.capacity).not.toHaveProperty(['aws.amazon.com/neuron']);
  });

  it('advertises branch ENIs only for trunking-compatible types', () => {
    // Prepare
    const names = ['m5.large', 't3.nano'] as const;

    // Act
    const [m5, t3] = names.map((name) => buildOne(name));

    // Assess
    expect(m5?.capacity['vpc.amazonaws.com/pod-eni']).toBe(9);
    expect(t3?.capacity).not.toHaveProperty(['vpc.amazonaws.com/pod-eni']);
  });

  it('advertises per-pod private IPv4 addresses on Windows nodes', () => {
    // Prepare
    const windows = aNodeClass({ amiFamily: 'Windows2022' });

    // Act
    const m5 = buildOne('m5.large', { nodeClass: windows });
    const linux = buildOne('m5.large');

    // Assess
    expect(m5.capacity['vpc.amazonaws.com/PrivateIPv4Address']).toBe(9);
    expect(linux.capacity).not.toHaveProperty(['vpc.amazonaws.com/PrivateIPv4Address']);
  });
});
