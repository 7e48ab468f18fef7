import { describe, expect, it } from 'vitest';
import { podEventUpdates } from '../../../functions/domain/disruption/pod-events.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aPod } from '../../support/builders.ts';

const T1 = new Date('2026-06-01T12:00:00Z');
const T2 = new Date('2026-06-01T12:03:00Z');

function aClaim(name: string, nodeName?: string): NodeClaimRecord {
  const phase = nodeName === undefined ? 'Launched' : 'Initialized';
  return { ...aNewNodeClaim({ name, phase, ...(nodeName ? { nodeName } : {}) }), version: 1 };
}

describe('pod events on claims', () => {
  const web = [
    aPod({ name: 'web-1', nodeName: 'n1' }),
    aPod({ name: 'web-2', nodeName: 'n1' }),
    aPod({ name: 'agent', nodeName: 'n1', ownerKind: 'DaemonSet' }),
  ];

  it('starts every joined claim from the pods it first sees, and skips claims with no node', () => {
    const updates = podEventUpdates([aClaim('a', 'n1'), aClaim('b')], web, T1);
    expect(updates.map((c) => [c.name, c.pods?.lastPodEventTime])).toEqual([
      ['a', T1.toISOString()],
    ]);
  });

  it('marks nothing while the same pods stay, whatever their order', () => {
    const [seen] = podEventUpdates([aClaim('a', 'n1')], web, T1);
    if (seen === undefined) throw new Error('no first sighting');
    expect(podEventUpdates([seen], [...web].reverse(), T2)).toEqual([]);
  });

  it('marks a pod leaving and a pod arriving, but not a DaemonSet pod coming and going', () => {
    const [seen] = podEventUpdates([aClaim('a', 'n1')], web, T1);
    if (seen === undefined) throw new Error('no first sighting');
    const left = podEventUpdates([seen], web.slice(1), T2);
    expect(left.map((c) => c.pods?.lastPodEventTime)).toEqual([T2.toISOString()]);
    const arrived = podEventUpdates([seen], [...web, aPod({ name: 'web-3', nodeName: 'n1' })], T2);
    expect(arrived).toHaveLength(1);
    expect(podEventUpdates([seen], web.slice(0, 2), T2)).toEqual([]);
  });
});
