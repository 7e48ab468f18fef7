import { describe, expect, it } from 'vitest';
import { claimsOfDeletedPools } from '../../../functions/domain/lifecycle/owner-cascade.ts';
import { aNewNodeClaim, aNodePool } from '../../contracts/state-fixtures.ts';

const claim = (name: string, nodePool: string, phase = 'Initialized' as const) => ({
  ...aNewNodeClaim({ name, nodePool }),
  phase,
  version: 1,
});

describe('claims whose NodePool is gone', () => {
  it('are the claims of pools that no longer exist and are not going already', () => {
    const claims = [
      claim('default-a', 'default'),
      claim('gone-a', 'gone'),
      { ...claim('gone-b', 'gone'), phase: 'Draining' as const },
      { ...claim('gone-c', 'gone'), phase: 'Pending' as const },
    ];
    expect(claimsOfDeletedPools(claims, [aNodePool('default')]).map((c) => c.name)).toEqual([
      'gone-a',
      'gone-c',
    ]);
  });
});
