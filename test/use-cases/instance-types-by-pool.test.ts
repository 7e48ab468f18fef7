import { describe, expect, it } from 'vitest';
import type { EC2NodeClass } from '../../functions/domain/node-class.ts';
import type { NodePool } from '../../functions/domain/node-pool.ts';
import { InvalidConfigError, NodeClassNotReadyError } from '../../functions/ports/errors.ts';
import { instanceTypesByPool } from '../../functions/use-cases/instance-types-by-pool.ts';
import { aNodePool, someInstanceTypes } from '../support/builders.ts';

function aClass(name: string): EC2NodeClass {
  return { metadata: { name }, spec: {} };
}

/** A pool of the class named `className`. */
function aPoolOf(name: string, className: string): NodePool {
  const pool = aNodePool({ name });
  const template = pool.spec.template;
  const nodeClassRef = { ...template.spec.nodeClassRef, name: className };
  return {
    ...pool,
    spec: { ...pool.spec, template: { ...template, spec: { ...template.spec, nodeClassRef } } },
  };
}

const POOLS = [aPoolOf('training', 'in-a-gone-group'), aPoolOf('web', 'default')];

describe('instanceTypesByPool', () => {
  it('gives the pools of a class that is not ready no instance types, and the others theirs', async () => {
    // Prepare
    const provider = {
      instanceTypes: async (nodeClass: EC2NodeClass) => {
        if (nodeClass.metadata.name === 'default') return someInstanceTypes();
        throw new NodeClassNotReadyError('placement group "gone" not found');
      },
    };
    const request = {
      nodePools: POOLS,
      nodeClasses: [aClass('in-a-gone-group'), aClass('default')],
    };

    // Act
    const { byPool } = await instanceTypesByPool(request, provider);

    // Assess
    expect([...byPool.keys()]).toEqual(['web']);
  });

  it('lets any other failure through', async () => {
    // Prepare
    const provider = {
      instanceTypes: async () => {
        throw new InvalidConfigError('no subnets match its selector terms');
      },
    };
    const request = {
      nodePools: POOLS,
      nodeClasses: [aClass('in-a-gone-group'), aClass('default')],
    };

    // Act
    const listing = instanceTypesByPool(request, provider);

    // Assess
    await expect(listing).rejects.toThrow('no subnets match its selector terms');
  });
});
