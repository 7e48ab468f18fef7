import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../functions/ports/decisions.ts';
import { MemoryDecisionPublisher } from '../../../simulator/memory/memory-decision-publisher.ts';

function aDecision(overrides: Partial<Decision> = {}): Decision {
  return {
    kind: 'Launched',
    time: '2024-08-10T09:00:12.000Z',
    nodeClaim: 'default-7xk2p',
    nodePool: 'default',
    instanceId: 'i-0123456789abcdef0',
    instanceType: 'm7g.large',
    zone: 'us-west-2a',
    capacityType: 'spot',
    pricePerHour: 0.0408,
    reason: '3 pods unschedulable: default/web-1, default/web-2, default/web-3',
    ...overrides,
  };
}

describe('the in-memory decision publisher', () => {
  it('records decisions in the order they were published, across calls', async () => {
    // Prepare
    const publisher = new MemoryDecisionPublisher();
    const launched = aDecision({ kind: 'Launched' });
    const registered = aDecision({ kind: 'Registered', nodeName: 'ip-10-0-1-17.ec2.internal' });
    const initialized = aDecision({ kind: 'Initialized', nodeName: 'ip-10-0-1-17.ec2.internal' });
    // Act
    await publisher.publish([launched, registered]);
    await publisher.publish([]);
    await publisher.publish([initialized]);
    // Assess
    expect(publisher.published()).toEqual([launched, registered, initialized]);
  });

  it('has recorded nothing before anything is published', () => {
    // Prepare
    const publisher = new MemoryDecisionPublisher();
    // Act
    const published = publisher.published();
    // Assess
    expect(published).toEqual([]);
  });

  it("keeps what was published when the caller's or a reader's objects change", async () => {
    // Prepare
    const publisher = new MemoryDecisionPublisher();
    const decision = { ...aDecision() };
    await publisher.publish([decision]);
    // Act
    (decision as { reason: string }).reason = 'changed by the caller';
    const read = publisher.published() as Decision[];
    (read[0] as { reason: string }).reason = 'changed by a reader';
    read.push(aDecision({ nodeClaim: 'default-extra' }));
    // Assess
    expect(publisher.published()).toEqual([aDecision()]);
  });
});
