import { describe, expect, it } from 'vitest';
import {
  isRestrictedNodeLabel,
  Label,
  labelDomain,
  normalizeLabelKey,
  restrictedLabelReason,
  WELL_KNOWN_LABELS,
} from '../../functions/domain/labels.ts';
import { NORMALIZED_LABEL_KEYS } from '../support/label-keys.ts';

describe('restricted node labels', () => {
  it.each([
    ['kubernetes.io/hostname', true],
    ['karpenter.sh/custom', true],
    ['team.karpenter.sh/custom', true],
    ['karpenter.sh/registered', true],
    ['karpenter.k8s.aws/custom', true],
    ['karpenter.k8s.aws/placement-group-id', true],
    ['example-karpenter.sh/custom', false],
    ['kubernetes.io/custom', false],
    ['example.kubernetes.io/custom', false],
    ['k8s.io/custom', false],
    ['team.k8s.io/custom', false],
    ['node.kubernetes.io/role', false],
    ['team.node.kubernetes.io/role', false],
    ['mynode.kubernetes.io/role', false],
    ['node-restriction.kubernetes.io/pool', false],
    ['kops.k8s.io/instancegroup', false],
    ['example.com/team', false],
    ['team', false],
  ])('treats %s as restricted: %s', (key, restricted) => {
    // Act
    const result = isRestrictedNodeLabel(key);

    // Assess
    expect(result).toBe(restricted);
  });

  it('counts every well-known label as restricted for stamping, yet allowed in requirements', () => {
    // Act
    const stamped = [...WELL_KNOWN_LABELS].filter((key) => !isRestrictedNodeLabel(key));
    const refused = [...WELL_KNOWN_LABELS].filter(
      (key) => restrictedLabelReason(key) !== undefined,
    );

    // Assess
    expect(stamped).toEqual([]);
    expect(refused).toEqual([]);
  });

  it.each([
    Label.zone,
    Label.capacityType,
    Label.nodePool,
    Label.instanceType,
    Label.arch,
    Label.os,
    Label.windowsBuild,
    Label.zoneId,
    Label.instanceFamily,
    Label.instanceCpu,
  ])('allows the well-known label %s in requirements', (key) => {
    // Act
    const reason = restrictedLabelReason(key);

    // Assess
    expect(reason).toBeUndefined();
  });

  it.each([Label.hostname, 'karpenter.sh/custom', Label.initialized, 'karpenter.k8s.aws/custom'])(
    'refuses %s in requirements with a reason naming it',
    (key) => {
      // Act
      const reason = restrictedLabelReason(key);

      // Assess
      expect(reason).toContain(`label ${key} is restricted`);
    },
  );

  it.each(['node.kubernetes.io/role', 'kops.k8s.io/ig', 'example.com/team', 'kubernetes.io/team'])(
    'accepts the custom label %s in requirements',
    (key) => {
      // Act
      const reason = restrictedLabelReason(key);

      // Assess
      expect(reason).toBeUndefined();
    },
  );
});

describe('label keys', () => {
  it.each(NORMALIZED_LABEL_KEYS)('normalizes %s to %s', (key, normalized) => {
    // Act
    const result = normalizeLabelKey(key);

    // Assess
    expect(result).toBe(normalized);
  });

  it.each([
    ['kubernetes.io/hostname', 'kubernetes.io'],
    ['team', ''],
    ['a.b/c/d', 'a.b'],
  ])('reads the domain of %s as %j', (key, domain) => {
    // Act
    const result = labelDomain(key);

    // Assess
    expect(result).toBe(domain);
  });
});

describe('label keys named like JavaScript members', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'normalizes %s to itself and finds it unrestricted, as any plain key',
    (key) => {
      // Act
      const normalized = normalizeLabelKey(key);

      // Assess
      expect(normalized).toBe(key);
      expect(restrictedLabelReason(normalized)).toBeUndefined();
    },
  );
});
