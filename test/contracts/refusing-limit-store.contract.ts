/** RefusingLimitStore: a limit starts refusing once, however many passes race to say so. */
import { describe, expect, it } from 'vitest';
import type { RefusingLimit } from '../../functions/domain/state/refusing-limit.ts';
import { type StoreFactory, T0 } from './state-fixtures.ts';

const cost: RefusingLimit = {
  key: 'cluster/nodesmith.io/hourly-cost',
  limit: 'nodesmith.io/hourly-cost',
  message: 'The cluster would exceed its hourly cost limit: $899.10 of $900.00 used',
  since: T0.toISOString(),
};
const nodes: RefusingLimit = {
  key: 'nodepool/web/nodes',
  nodePool: 'web',
  limit: 'nodes',
  message: 'NodePool web would exceed its nodes limit: 4 of 4 used',
  since: T0.toISOString(),
};

export function refusingLimitStoreContract(makeStore: StoreFactory): void {
  describe('refusing limits', () => {
    it('begins a refusal once, lists it, and begins it anew after it ended', async () => {
      const { refusingLimits } = await makeStore();
      expect(await refusingLimits.begin(nodes)).toBe(true);
      expect(await refusingLimits.begin({ ...nodes, since: 'later' })).toBe(false);
      expect(await refusingLimits.begin(cost)).toBe(true);
      expect(await refusingLimits.list()).toEqual([cost, nodes]);
      await refusingLimits.end(nodes.key);
      await refusingLimits.end(nodes.key);
      expect(await refusingLimits.list()).toEqual([cost]);
      expect(await refusingLimits.begin(nodes)).toBe(true);
    });

    it('lets exactly one of racing passes begin the same refusal', async () => {
      const { refusingLimits } = await makeStore();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => refusingLimits.begin(nodes)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}
