import { describe, expect, it } from 'vitest';
import type { EC2NodeClass } from '../../../functions/domain/node-class.ts';
import { poolStatuses } from '../../../functions/domain/pools/pool-status.ts';
import { aNodePool } from '../../support/builders.ts';

describe('pool statuses', () => {
  it.each<[string, EC2NodeClass[]]>([
    ['no EC2NodeClass is stored', []],
    ['only another EC2NodeClass is stored', [{ metadata: { name: 'other' }, spec: {} }]],
  ])(
    'shows a pool whose class is missing not ready (NodeClassNotFound) when %s',
    (_label, nodeClasses) => {
      // Prepare
      const nodePools = [{ document: aNodePool(), resourceVersion: 1 }];

      // Act
      const [status] = poolStatuses({ nodePools, nodeClasses, claims: [], ended: [] });

      // Assess
      expect(status).toMatchObject({
        ready: false,
        notReady: {
          reason: 'NodeClassNotFound',
          message: 'EC2NodeClass "default" not found; apply it to launch for this pool',
        },
      });
    },
  );

  it('shows a pool whose class is stored ready', () => {
    // Prepare
    const nodePools = [{ document: aNodePool(), resourceVersion: 1 }];
    const nodeClasses = [{ metadata: { name: 'default' }, spec: {} }];

    // Act
    const [status] = poolStatuses({ nodePools, nodeClasses, claims: [], ended: [] });

    // Assess
    expect(status?.ready).toBe(true);
    expect(status?.notReady).toBeUndefined();
  });
});
