/**
 * `nodesmith plan`, run in the test's process, on every NodePool and EC2NodeClass of Karpenter
 * v1.14.1's `examples/v1`, filled in as its README says, with its `inflate` workload: each plans
 * a node its pool's requirements and minValues allow, or is refused with exit status 2 at the
 * field its API test names (test/handlers/api/karpenter-examples.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../support/cli-in-process.ts';
import {
  ACCEPTED_POOL_EXAMPLES,
  documentsOf,
  poolExample,
  REFUSED_POOL_EXAMPLES,
  workloadExample,
  writeExample,
} from '../../support/karpenter-examples.ts';

interface Requirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  readonly values?: readonly string[];
  readonly minValues?: number;
}

interface PoolSpec {
  readonly template: {
    readonly spec: {
      readonly requirements: readonly Requirement[];
      readonly nodeClassRef: { readonly name: string };
    };
  };
}

interface PlannedClaim {
  readonly nodePool: string;
  readonly instanceTypeOptions: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
  readonly pods: readonly string[];
}

/** Whether a node labelled `labels` meets `requirement`, as Karpenter's operators read. */
function satisfies(labels: Readonly<Record<string, string>>, requirement: Requirement): boolean {
  const value = labels[requirement.key];
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return value !== undefined && Number(value) > Number(values[0]);
    case 'Lt':
      return value !== undefined && Number(value) < Number(values[0]);
  }
}

/** The value an instance type name gives a well-known key, for the keys the examples' minValues use. */
const FROM_NAME: Readonly<Record<string, (type: string) => string>> = {
  'node.kubernetes.io/instance-type': (type) => type,
  'karpenter.k8s.aws/instance-family': (type) => type.split('.')[0] ?? type,
  'karpenter.k8s.aws/instance-category': (type) => /^[a-z]+/.exec(type)?.[0] ?? type,
};

function distinct(types: readonly string[], key: string): number {
  const read = FROM_NAME[key];
  if (read === undefined) throw new Error(`no minValues reading for ${key}`);
  return new Set(types.map(read)).size;
}

describe("nodesmith plan and Karpenter's example NodePools", () => {
  it.each(ACCEPTED_POOL_EXAMPLES)(
    'plans inflate with %s on a node its pool allows',
    async (name) => {
      // Prepare
      const text = poolExample(name);
      const pools = new Map(
        documentsOf(text)
          .filter((document) => document.kind === 'NodePool')
          .map((document) => [document.name, document.spec as unknown as PoolSpec]),
      );
      const files = [
        writeExample(name, text),
        writeExample('inflate.yaml', workloadExample('inflate.yaml')),
      ];

      // Act
      const result = await runCliInProcess([
        'plan',
        '-o',
        'json',
        ...files.flatMap((f) => ['-f', f]),
      ]);

      // Assess
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      const plan = JSON.parse(result.stdout);
      expect(plan.unschedulable).toEqual([]);
      const [claim, ...others] = plan.nodeClaims as PlannedClaim[];
      expect(others).toEqual([]);
      expect(claim?.pods).toHaveLength(1);
      const pool = pools.get(claim?.nodePool ?? '')?.template.spec;
      expect(pool).toBeDefined();
      const labels = claim?.labels ?? {};
      expect(labels['karpenter.k8s.aws/ec2nodeclass']).toBe(pool?.nodeClassRef.name);
      for (const requirement of pool?.requirements ?? []) {
        expect({ requirement, met: satisfies(labels, requirement) }).toEqual({
          requirement,
          met: true,
        });
        if (requirement.minValues === undefined) continue;
        const options = claim?.instanceTypeOptions ?? [];
        expect(distinct(options, requirement.key)).toBeGreaterThanOrEqual(requirement.minValues);
      }
    },
  );

  it.each(REFUSED_POOL_EXAMPLES)('refuses $example with exit status 2: $why', async (refusal) => {
    // Prepare
    const file = writeExample(refusal.example, poolExample(refusal.example));

    // Act
    const result = await runCliInProcess(['plan', '-o', 'json', '-f', file]);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const [message, ...more] = result.stderr.trimEnd().split('\n');
    expect(more).toEqual([]);
    expect(message).toMatch(new RegExp(`^nodesmith: ${file}:\\d+: `));
    expect(message?.endsWith(`${refusal.field}: ${refusal.error}`)).toBe(true);
  });
});
