/**
 * The events `kubectl describe pod` shows for provisioning: Karpenter nominates a pod to the claim
 * launched for it and to room on a node or claim already there (core scheduling/results.go
 * `Record`, events.go `NominatePodEvent`).
 */
import { describe, expect, it } from 'vitest';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import { placeNames, podEvents } from '../../../functions/use-cases/controller/pod-events.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aNode, aPod } from '../../support/builders.ts';

function aClaim(name: string, node?: { name: string; providerID: string }): NodeClaimRecord {
  return {
    ...aNewNodeClaim({ name }),
    ...(node === undefined ? {} : { nodeName: node.name, providerID: node.providerID }),
    version: 1,
  };
}

const nothing = { launches: [], unschedulable: [], failures: [] };

describe('Nominated events', () => {
  it('nominate the pods put on room already there, naming the claim and then its node', () => {
    // Prepare: a node of a claim, a node Nodesmith did not make, a claim still launching.
    const joined = { ...aNode({ name: 'ip-10-0-0-1' }), providerID: 'aws:///us-east-1a/i-1' };
    const foreign = aNode({ name: 'ip-10-0-0-2' });
    const pods = ['a', 'b', 'c', 'd'].map((name) => aPod({ name, namespace: 'shop' }));
    const claims = [aClaim('general-00001', { name: 'other', providerID: joined.providerID })];
    const placedOnExisting = [
      { name: 'ip-10-0-0-1', pods: ['shop/a'] },
      { name: 'ip-10-0-0-2', pods: ['shop/b'] },
      { name: 'general-00002', pods: ['shop/c', 'shop/gone'] },
    ];
    // Act
    const events = podEvents(
      pods,
      { ...nothing, placedOnExisting },
      placeNames([joined, foreign], claims),
    );
    // Assess
    expect(
      events.map((e) => [e.involvedObject.name, e.reason, e.message, e.dedupeSeconds]),
    ).toEqual([
      ['a', 'Nominated', 'Pod should schedule on: nodeclaim/general-00001, node/ip-10-0-0-1', 120],
      ['b', 'Nominated', 'Pod should schedule on: node/ip-10-0-0-2', 120],
      ['c', 'Nominated', 'Pod should schedule on: nodeclaim/general-00002', 120],
    ]);
  });

  it('find a node by the name its claim records when the provider id is not known yet', () => {
    const node = aNode({ name: 'ip-10-0-0-3' });
    const name = placeNames(
      [node],
      [aClaim('general-00003', { name: 'ip-10-0-0-3', providerID: '' })],
    );
    expect(name('ip-10-0-0-3')).toBe('nodeclaim/general-00003, node/ip-10-0-0-3');
  });
});
