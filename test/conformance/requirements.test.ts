/**
 * Node requirements: custom labels and operators, restricted and normalized labels, node
 * affinity fallback, and the choice of instance type and capacity type (core:
 * pkg/apis/v1/labels.go, pkg/scheduling/requirements.go, provisioning/scheduling/preferences.go;
 * cases from scheduling/suite_test.go, instance_selection_test.go).
 */
import { describe, expect, it } from 'vitest';
import {
  ARCH,
  CAPACITY_TYPE,
  claimOf,
  fixture,
  INSTANCE_TYPE,
  planOf,
  runCli,
  unschedulablePods,
  ZONE,
} from './plan-cli.ts';

describe.concurrent('custom labels', () => {
  it('labels the claim of an unconstrained pod with the NodePool template labels', async () => {
    // Prepare: a NodePool labelled team=payments, a pod without node selectors
    const fixture = 'nodepool-label-unconstrained-pod';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.labels.team).toBe('payments');
  });

  it('does not place a pod selecting another value of a NodePool label', async () => {
    // Prepare: the NodePool sets team=payments, the pod selects team=search
    const fixture = 'nodepool-label-conflicting-selector';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/web']);
  });

  it('does not place a pod selecting a label no NodePool defines', async () => {
    // Prepare: the pod selects team=payments, no NodePool mentions team
    const fixture = 'node-selector-undefined-label';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/web']);
  });

  it('places a pod requiring a value the NodePool allows with In', async () => {
    // Prepare: the NodePool requires team In [payments], so does the pod
    const fixture = 'nodepool-requirement-in';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.labels.team).toBe('payments');
  });

  it('honours NotIn against the NodePool values', async () => {
    // Prepare: NodePool team In [payments]; pods require NotIn [payments] and NotIn [search]
    const fixture = 'nodepool-requirement-not-in';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/excluded']);
    expect(claimOf(plan, 'default/allowed')?.labels.team).toBe('payments');
  });

  it('stamps the pod value on a label the NodePool requires to exist', async () => {
    // Prepare: NodePool team Exists, the pod selects team=payments
    const fixture = 'nodepool-requirement-exists';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.labels.team).toBe('payments');
  });

  it('honours DoesNotExist against pods selecting the label', async () => {
    // Prepare: NodePool team DoesNotExist; one pod selects team=payments, one requires DoesNotExist
    const fixture = 'nodepool-requirement-does-not-exist';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/selecting']);
    expect(claimOf(plan, 'default/absent')?.labels).not.toHaveProperty('team');
  });

  it('narrows instance types with Gt and Lt on a pod', async () => {
    // Prepare: the pod requires instance-cpu Gt 2 and Lt 8 (m5.large 2, m5.xlarge 4, m5.2xlarge 8)
    const fixture = 'pod-requirement-gt-lt';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.instanceTypeOptions).toEqual(['m5.xlarge']);
  });

  it('narrows instance types with Gt on a NodePool', async () => {
    // Prepare: the NodePool requires instance-cpu Gt 4
    const fixture = 'nodepool-requirement-gt';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const claim = claimOf(plan, 'default/web');
    expect(claim?.instanceType).toBe('m5.2xlarge');
    expect(claim?.labels['karpenter.k8s.aws/instance-cpu']).toBe('8');
  });

  it('does not place pods selecting restricted labels', async () => {
    // Prepare: one pod selects kubernetes.io/hostname, one requires karpenter.sh/custom-label
    const fixture = 'restricted-label-node-selector';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(unschedulablePods(plan)).toEqual(['default/hostname', 'default/restricted']);
  });

  it('rejects a NodePool that sets a label in a restricted domain', async () => {
    // Prepare: template label karpenter.sh/team, which Karpenter's CRD refuses
    const file = fixture('invalid/restricted-nodepool-label');

    // Act
    const run = await runCli(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${file}:12`);
    expect(run.stderr).toContain('spec.template.metadata.labels[karpenter.sh/team]');
  });

  it('rejects a NodePool that requires kubernetes.io/hostname', async () => {
    // Prepare: a requirement on kubernetes.io/hostname, which Karpenter's CRD refuses
    const file = fixture('invalid/restricted-nodepool-requirement');

    // Act
    const run = await runCli(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${file}:19`);
    expect(run.stderr).toContain('spec.template.spec.requirements[1].key');
  });

  it('accepts labels under the excepted restricted domains', async () => {
    // Prepare: NodePool label node-restriction.kubernetes.io/team=payments, a pod selecting it
    const fixture = 'label-domain-exception';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.labels['node-restriction.kubernetes.io/team']).toBe(
      'payments',
    );
  });

  it('places pods selecting each well-known label', async () => {
    // Prepare: pods constrained by zone, instance type, arch, os and capacity type
    const fixture = 'well-known-label-selectors';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.unschedulable).toEqual([]);
    expect(claimOf(plan, 'default/zone')?.zone).toBe('us-east-1b');
    expect(claimOf(plan, 'default/instance-type')?.instanceType).toBe('m5.large');
    expect(claimOf(plan, 'default/arch')?.labels[ARCH]).toBe('arm64');
    expect(claimOf(plan, 'default/os')?.labels['kubernetes.io/os']).toBe('linux');
    expect(claimOf(plan, 'default/capacity-type')?.capacityType).toBe('on-demand');
  });

  it('reads deprecated beta labels as their stable names', async () => {
    // Prepare: the pod selects beta.kubernetes.io/arch and failure-domain.beta.kubernetes.io/zone
    const fixture = 'beta-labels-normalized';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const claim = claimOf(plan, 'default/web');
    expect(claim?.labels[ARCH]).toBe('arm64');
    expect(claim?.labels[ZONE]).toBe('us-east-1b');
  });
});

describe.concurrent('node affinity fallback', () => {
  it('tries required node affinity terms in order', async () => {
    // Prepare: the first term asks for zone us-east-1z, the second for us-east-1b
    const fixture = 'required-node-affinity-terms-in-order';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.zone).toBe('us-east-1b');
  });

  it('honours the heaviest preferred node affinity term', async () => {
    // Prepare: weight 1 prefers us-east-1b, weight 50 prefers us-east-1c
    const fixture = 'preferred-node-affinity-heaviest-first';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.zone).toBe('us-east-1c');
  });

  it('drops preferred node affinity terms heaviest first', async () => {
    // Prepare: weight 100 prefers an instance type the NodePool lacks, weight 10 prefers us-east-1b
    const fixture = 'preferred-node-affinity-relaxed-heaviest-first';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const claim = claimOf(plan, 'default/web');
    expect(claim?.zone).toBe('us-east-1b');
    expect(claim?.instanceType).toBe('m5.large');
  });

  it('places a pod whose only preferred term cannot be met', async () => {
    // Prepare: the pod prefers zone us-east-1z
    const fixture = 'preferred-node-affinity-unsatisfiable';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/web')?.nodePool).toBe('default');
  });
});

describe.concurrent('instance selection', () => {
  it('chooses the cheapest compatible instance type and lists options cheapest first', async () => {
    // Prepare: m5.large $0.096, m6i.large $0.096, c5.large $0.085, all fit the pod
    const fixture = 'cheapest-compatible-instance-type';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const claim = claimOf(plan, 'default/web');
    expect(claim?.instanceType).toBe('c5.large');
    expect(claim?.pricePerHour).toBe(0.085);
    expect(claim?.instanceTypeOptions).toEqual(['c5.large', 'm5.large', 'm6i.large']);
  });

  it('chooses the cheapest instance type of the pod architecture', async () => {
    // Prepare: the pod requires amd64; arm64 c6g.large and m6g.large would be cheaper
    const fixture = 'cheapest-instance-type-for-pod-arch';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const claim = claimOf(plan, 'default/web');
    expect(claim?.instanceType).toBe('m5a.large');
    expect(claim?.instanceTypeOptions).toEqual(['m5a.large', 'm5.large']);
  });

  it('chooses the cheapest instance type of the NodePool architecture', async () => {
    // Prepare: the NodePool allows arm64 only
    const fixture = 'cheapest-instance-type-for-pool-arch';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const claim = claimOf(plan, 'default/web');
    expect(claim?.instanceType).toBe('c6g.large');
    expect(claim?.instanceTypeOptions).toEqual(['c6g.large', 'm6g.large']);
  });

  it('chooses the cheapest instance type with enough memory', async () => {
    // Prepare: a pod asking for 10Gi; m5.large and c5.xlarge have 8 GiB
    const fixture = 'memory-bound-pod-instance-type';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/cache')?.instanceTypeOptions).toEqual(['r5.large', 'm5.xlarge']);
  });

  it('uses the capacity type a pod requires and spot when the pod leaves it open', async () => {
    // Prepare: the NodePool allows spot and on-demand; one pod requires on-demand
    const fixture = 'capacity-type-from-pod';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(claimOf(plan, 'default/steady')?.capacityType).toBe('on-demand');
    expect(claimOf(plan, 'default/flexible')?.capacityType).toBe('spot');
    expect(claimOf(plan, 'default/flexible')?.labels[CAPACITY_TYPE]).toBe('spot');
  });

  it('does not place a pod no instance type of the NodePool can match', async () => {
    // Prepare: the pod requires arm64, the NodePool offers m5.large and c5.large
    const fixture = 'no-instance-type-matches';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(unschedulablePods(plan)).toEqual(['default/web']);
  });

  it('launches only in the zones of the EC2NodeClass subnets', async () => {
    // Prepare: subnets in us-east-1a and us-east-1b; pods require us-east-1b and us-east-1c
    const fixture = 'zone-outside-node-class-subnets';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const claim = claimOf(plan, 'default/zone-b');
    expect(claim?.zone).toBe('us-east-1b');
    expect(claim?.labels['topology.k8s.aws/zone-id']).toBe('use1-az2');
    expect(unschedulablePods(plan)).toEqual(['default/zone-c']);
  });

  it('tries the NodePool with the highest weight first', async () => {
    // Prepare: NodePool "preferred" (weight 50, m5.large) and "cheap" (weight 10, c5.large)
    const fixture = 'nodepool-weight-order';

    // Act
    const plan = await planOf(fixture);

    // Assess
    const claim = claimOf(plan, 'default/web');
    expect(claim?.nodePool).toBe('preferred');
    expect(claim?.labels[INSTANCE_TYPE]).toBe('m5.large');
  });

  it('launches nothing from a NodePool that reports Ready=False', async () => {
    // Prepare: the only NodePool's status says Ready=False
    const fixture = 'nodepool-not-ready-skipped';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reason).toContain('not ready');
  });

  it('launches nothing from a NodePool that is being deleted', async () => {
    // Prepare: the only NodePool carries a deletionTimestamp
    const fixture = 'deleting-nodepool-only';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable).toEqual([
      { pod: 'default/web', reason: expect.stringContaining('NodePool is being deleted') },
    ]);
  });

  it('still uses the nodes of a NodePool being deleted, and launches from the next pool', async () => {
    // Prepare: "retiring" (weight 50, deleting) has a node with 1930m free; "default" (weight 10)
    const fixture = 'deleting-nodepool-launches-nothing';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.existingNodes).toEqual([
      { name: 'ip-10-0-1-21.ec2.internal', pods: ['default/api'] },
    ]);
    expect(plan.nodeClaims.map((c) => [c.nodePool, c.pods])).toEqual([
      ['default', ['default/web']],
    ]);
  });

  it('launches nothing from a NodePool whose EC2NodeClass reports Ready=False', async () => {
    // Prepare: the NodePool's class status says Ready=False
    const fixture = 'node-class-not-ready-skipped';

    // Act
    const plan = await planOf(fixture);

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reason).toContain('EC2NodeClass "default" is not ready');
  });
});
