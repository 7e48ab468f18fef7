import { describe, expect, it } from 'vitest';
import { buildInstanceTypes } from '../../../functions/domain/instance-types/instance-types.ts';
import { aNodeClass, buildOne, catalogEntry, Mi } from './builders.ts';

describe('max pods', () => {
  it('limits pods by the ENIs of the default network card', () => {
    // Prepare: 15 ENIs × (50 − 1) + 2, although the type has 4 network cards.
    const name = 'p4d.24xlarge';

    // Act
    const p4d = buildOne(name);

    // Assess
    expect(p4d.capacity.pods).toBe(737);
  });

  it('keeps reserved ENIs out of pod networking', () => {
    // Prepare
    const reservedEnis = 1;

    // Act
    const m5 = buildOne('m5.large', { reservedEnis });
    const none = buildOne('m5.large', { reservedEnis: 3 });

    // Assess: 2 × 9 + 2; with no ENI left there is no pod IP at all.
    expect(m5.capacity.pods).toBe(20);
    expect(none.capacity.pods).toBe(0);
  });

  // aws: pkg/providers/instancetype/suite_test.go, Network Interfaces: max pods
  it.each([
    ['on a card other than the default', 1, 394],
    ['on the default card', 0, 345],
  ])('counts an EFA-only interface %s against pod ENIs', (_case, card, expected) => {
    // Prepare: m6idn.32xlarge has 8 ENIs on card 0 and 50 IPv4 addresses per ENI.
    const nodeClass = aNodeClass({
      networkInterfaces: [
        { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' },
        { networkCardIndex: card, deviceIndex: card === 0 ? 1 : 0, interfaceType: 'efa-only' },
      ],
    });

    // Act
    const m6idn = buildOne('m6idn.32xlarge', { nodeClass });

    // Assess
    expect(m6idn.capacity.pods).toBe(expected);
  });

  it('does not let reserved ENIs shrink kube-reserved memory on AL2023', () => {
    // Prepare
    const reservedEnis = 1;

    // Act
    const m5 = buildOne('m5.large', { reservedEnis });

    // Assess: still 11Mi × 29 + 255Mi.
    expect(m5.overhead.memory).toBe((574 + 100) * Mi);
  });

  it('uses the published pod count for types without ENI limits', () => {
    // Prepare
    const name = 'hpc7a.12xlarge';

    // Act
    const hpc = buildOne(name);

    // Assess
    expect(hpc.capacity.pods).toBe(100);
  });

  it('has no pod capacity when neither ENI limits nor a published pod count are known', () => {
    // Prepare
    const { maxEnis: _enis, ipv4PerEni: _ips, ...unknown } = catalogEntry('m5.large');

    // Act
    const [m5] = buildInstanceTypes({
      catalog: [unknown],
      region: 'us-east-1',
      prices: new Map(),
      zones: [],
    });

    // Assess
    expect(m5?.capacity.pods).toBe(0);
  });

  it('uses kubelet.maxPods instead of the ENI limit', () => {
    // Prepare
    const nodeClass = aNodeClass({ kubelet: { maxPods: 110 } });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity.pods).toBe(110);
    expect(m5.allocatable.pods).toBe(110);
  });

  it('caps pods at podsPerCore × vCPU when that is lower', () => {
    // Prepare
    const tight = aNodeClass({ kubelet: { podsPerCore: 4 } });
    const loose = aNodeClass({ kubelet: { podsPerCore: 20 } });

    // Act
    const capped = buildOne('m5.large', { nodeClass: tight });
    const uncapped = buildOne('m5.large', { nodeClass: loose });

    // Assess
    expect(capped.capacity.pods).toBe(8);
    expect(uncapped.capacity.pods).toBe(29);
  });

  it('applies podsPerCore on top of kubelet.maxPods', () => {
    // Prepare
    const nodeClass = aNodeClass({ kubelet: { maxPods: 110, podsPerCore: 10 } });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity.pods).toBe(20);
  });

  it('ignores podsPerCore on Bottlerocket, whose settings cannot carry it', () => {
    // Prepare
    const nodeClass = aNodeClass({ amiFamily: 'Bottlerocket', kubelet: { podsPerCore: 4 } });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity.pods).toBe(29);
  });

  it('allows kubelet’s default of 110 pods on Windows, whatever the ENI limit', () => {
    // Prepare
    const nodeClass = aNodeClass({ amiFamily: 'Windows2022' });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess: kube-reserved memory follows: 11Mi × 110 + 255Mi.
    expect(m5.capacity.pods).toBe(110);
    expect(m5.overhead.memory).toBe((1465 + 100) * Mi);
  });

  it('reads the AMI family from an alias when amiFamily is not set', () => {
    // Prepare
    const nodeClass = aNodeClass({ amiSelectorTerms: [{ alias: 'windows2019@latest' }] });

    // Act
    const m5 = buildOne('m5.large', { nodeClass });

    // Assess
    expect(m5.capacity.pods).toBe(110);
  });
});
