/**
 * What a decision carries for Karpenter's metric labels: a claim marked for deletion, its reason
 * in Karpenter's snake case (core: pkg/utils/pretty/pretty.go ToSnakeCase).
 */
import { describe, expect, it } from 'vitest';
import { decisionOf, snakeCase } from '../../../functions/use-cases/controller/decisions.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';

describe('decision labels', () => {
  it.each([
    ['Empty', 'empty'],
    ['Underutilized', 'underutilized'],
    ['Drifted', 'drifted'],
    ['Expired', 'expired'],
    ['Unhealthy', 'unhealthy'],
    ['NodePoolDeleted', 'node_pool_deleted'],
    ['AMIDrift', 'ami_drift'],
  ])('%s is %s', (reason, label) => {
    // Prepare: the reason. Act and assess
    expect(snakeCase(reason)).toBe(label);
  });

  it('a Disrupting decision carries the claim’s disruption reason; others only what they are given', () => {
    // Prepare
    const claim = {
      ...aNewNodeClaim(),
      version: 1,
      disruption: { reason: 'Expired', message: 'expired', decidedAt: '2026-11-24T09:00:00.000Z' },
    };
    const now = new Date('2026-11-24T09:00:00.000Z');
    // Act
    const disrupting = decisionOf('Disrupting', claim, now, 'Expired: expired');
    const launched = decisionOf('Launched', claim, now, '1 pod', { createdFor: 'provisioned' });
    // Assess
    expect(disrupting).toMatchObject({ disruptedFor: 'expired', nodeClass: claim.nodeClass });
    expect(disrupting.createdFor).toBeUndefined();
    expect(launched).toMatchObject({ createdFor: 'provisioned' });
    expect(launched.disruptedFor).toBeUndefined();
  });
});
