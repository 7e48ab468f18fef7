import { describe, expect, it } from 'vitest';
import { pendingClaimRecord } from '../../../functions/domain/lifecycle/claim-record.ts';
import { claimCharges } from '../../../functions/domain/limits/claim-charges.ts';
import { HOURLY_COST } from '../../../functions/domain/limits/hourly-cost.ts';
import type { LimitScope } from '../../../functions/domain/limits/limit-scope.ts';
import { parseLimits } from '../../../functions/domain/limits/parsed-limits.ts';
import { admitClaim } from '../../../functions/domain/scheduling/claim-admission.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import { T0 } from '../../contracts/state-fixtures.ts';
import { aNodePool, anInstanceType, aPod, instanceTypesFor } from '../../support/builders.ts';
import { planFor } from '../../support/scheduling-builders.ts';

const large = anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1 });
const xlarge = anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 });
const onDemand = [
  { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] },
];
const pools = [aNodePool({ name: 'default', requirements: onDemand })];
const types = instanceTypesFor(pools, [large, xlarge]);

function planned() {
  const plan = planFor({
    pods: [aPod({ name: 'web', cpu: '1' })],
    nodePools: pools,
    instanceTypes: types,
  });
  const [claim] = plan.nodeClaims;
  if (claim === undefined) throw new Error('planning a claim: none planned');
  return claim;
}

function pending(name: string): NodeClaimRecord {
  return { ...pendingClaimRecord(planned(), name, T0), version: 1 };
}

function launched(name: string, pricePerHour: number): NodeClaimRecord {
  const claim = pending(name);
  return {
    ...claim,
    instanceId: `i-${name}`,
    phase: 'Launched',
    offering: { ...claim.offering, pricePerHour },
  };
}

const poolLimit = (limits: Record<string, string>): LimitScope[] => [
  { nodePool: 'default', limits: parseLimits(limits) },
];

describe('what claims count against limits', () => {
  it('counts a launched claim at the price its launch saw', () => {
    const [charge] = claimCharges([launched('a', 0.123)], types);
    expect(charge?.charge[HOURLY_COST]).toBe(123_000);
  });

  it('counts a claim not launched yet at the worst of its options', () => {
    const [charge] = claimCharges([pending('a')], types);
    expect(charge?.charge).toMatchObject({ nodes: 1, cpu: 4000, [HOURLY_COST]: 200_000 });
  });

  it('leaves out claims an interruption is taking, so their replacements can launch', () => {
    const interrupted: NodeClaimRecord = {
      ...launched('a', 0.1),
      disruption: { reason: 'SpotInterrupted', message: 'reclaimed', decidedAt: T0.toISOString() },
    };
    const drifted: NodeClaimRecord = {
      ...launched('b', 0.1),
      disruption: { reason: 'Drifted', message: 'AMI', decidedAt: T0.toISOString() },
    };
    expect(claimCharges([interrupted, drifted], types).map((c) => c.charge[HOURLY_COST])).toEqual([
      100_000,
    ]);
  });
});

describe('the limit check before a claim is written', () => {
  it('admits a claim that fits, keeping only the options no larger than the one planned', () => {
    const admission = admitClaim(
      planned(),
      poolLimit({ cpu: '5' }),
      claimCharges([launched('a', 0.1)], types),
    );
    expect(admission.admitted && admission.planned.instanceTypeOptions.map((t) => t.name)).toEqual([
      'm.large',
    ]);
  });

  it('refuses a claim whose cheapest option would pass a limit, naming it', () => {
    const charges = claimCharges([launched('a', 0.1), launched('b', 0.1)], types);
    expect(admitClaim(planned(), poolLimit({ [HOURLY_COST]: '0.25' }), charges)).toEqual({
      admitted: false,
      refusal: {
        nodePool: 'default',
        limit: HOURLY_COST,
        message: 'NodePool default would exceed its hourly cost limit: $0.20 of $0.25 used',
      },
    });
  });

  it("counts a racing pass's pending claim at its worst, so two passes never pass a limit", () => {
    // Prepare: a pending claim might still become an m.xlarge (4 cpu)
    const charges = claimCharges([pending('racing')], types);

    // Act
    const admission = admitClaim(planned(), poolLimit({ cpu: '5' }), charges);

    // Assess
    expect(admission).toEqual({
      admitted: false,
      refusal: {
        nodePool: 'default',
        limit: 'cpu',
        message: 'NodePool default would exceed its cpu limit: 4 of 5 used',
      },
    });
  });

  it('counts a cluster limit over every pool', () => {
    const other = { ...launched('x', 0.3), nodePool: 'other' };
    const cluster: LimitScope[] = [{ limits: parseLimits({ [HOURLY_COST]: '0.35' }) }];
    expect(admitClaim(planned(), cluster, claimCharges([other], types))).toMatchObject({
      admitted: false,
      refusal: {
        limit: HOURLY_COST,
        message: 'The cluster would exceed its hourly cost limit: $0.30 of $0.35 used',
      },
    });
  });
});
