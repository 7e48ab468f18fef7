import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import type { Pod, WeightedPodAffinityTerm } from '../../../functions/domain/pod.ts';
import {
  NO_REQUIREMENTS,
  toNodeSelector,
} from '../../../functions/domain/requirements/requirements.ts';
import { podRequirements } from '../../../functions/domain/scheduling/pod-requirements.ts';
import {
  type Preferences,
  preferencesOf,
  relax,
  withoutPreferences,
} from '../../../functions/domain/scheduling/preferences.ts';
import { aPod } from '../../support/builders.ts';
import {
  anAffinityTerm,
  aSpread,
  requiredNodeAffinity,
  zoneIn,
} from '../../support/scheduling-builders.ts';

function weighted(weight: number, app: string): WeightedPodAffinityTerm {
  return { weight, podAffinityTerm: anAffinityTerm(Label.hostname, { app }) };
}

/** A pod with something to relax at every step. */
function aDemandingPod(): Pod {
  return aPod({
    affinity: {
      nodeAffinity: {
        ...requiredNodeAffinity([zoneIn('a')], [zoneIn('b')])?.nodeAffinity,
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 1, preference: { matchExpressions: [zoneIn('c')] } },
        ],
      },
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(1, 'cache')] },
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(1, 'web')] },
    },
    topologySpreadConstraints: [
      aSpread({ matchLabels: { app: 'web' }, whenUnsatisfiable: 'DoNotSchedule' }),
      aSpread({ matchLabels: { app: 'web' }, whenUnsatisfiable: 'ScheduleAnyway' }),
    ],
  });
}

function relaxAll(prefs: Preferences, canTolerate: boolean): string[] {
  const dropped: string[] = [];
  let current = prefs;
  for (
    let step = relax(current, canTolerate);
    step !== undefined;
    step = relax(current, canTolerate)
  ) {
    dropped.push(step.dropped);
    current = step.preferences;
  }
  return dropped;
}

describe('relaxing a pod that cannot be placed', () => {
  it("drops one preference at a time in Karpenter's order", () => {
    // Prepare
    const prefs = preferencesOf(aDemandingPod());

    // Act
    const dropped = relaxAll(prefs, true);

    // Assess
    expect(dropped).toEqual([
      'required node affinity term 1',
      'preferred pod affinity',
      'preferred pod anti-affinity',
      'preferred node affinity',
      'ScheduleAnyway topology spread',
      'PreferNoSchedule taints',
    ]);
  });

  it('tolerates PreferNoSchedule taints only when some NodePool has one', () => {
    // Prepare
    const prefs = preferencesOf(aDemandingPod());

    // Act
    const dropped = relaxAll(prefs, false);

    // Assess
    expect(dropped).not.toContain('PreferNoSchedule taints');
    expect(dropped).toHaveLength(5);
  });

  it('keeps the last required node-affinity term and every DoNotSchedule spread', () => {
    // Prepare
    let prefs = preferencesOf(aDemandingPod());

    // Act
    for (let step = relax(prefs, true); step !== undefined; step = relax(prefs, true)) {
      prefs = step.preferences;
    }

    // Assess
    expect(prefs.requiredTerms).toEqual([{ matchExpressions: [zoneIn('b')] }]);
    expect(prefs.spreads.map((s) => s.whenUnsatisfiable)).toEqual(['DoNotSchedule']);
    expect(prefs.toleratesPreferNoSchedule).toBe(true);
  });

  it('has nothing to relax for a plain pod', () => {
    // Act
    const step = relax(preferencesOf(aPod()), true);

    // Assess
    expect(step?.dropped).toBe('PreferNoSchedule taints');
    expect(relax(preferencesOf(aPod()), false)).toBeUndefined();
  });

  it('drops preferred terms heaviest first, keeping the author order among equal weights', () => {
    // Prepare
    const pod = aPod({
      affinity: {
        podAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            weighted(10, 'light-first'),
            weighted(50, 'heavy'),
            weighted(10, 'light-second'),
          ],
        },
      },
    });

    // Act
    const order: string[] = [];
    let prefs = preferencesOf(pod);
    while (prefs.preferredAffinity.length > 0) {
      order.push(
        String(prefs.preferredAffinity[0]?.podAffinityTerm.labelSelector?.matchLabels?.app),
      );
      prefs = relax(prefs, false)?.preferences ?? prefs;
    }

    // Assess
    expect(order).toEqual(['heavy', 'light-first', 'light-second']);
  });

  it('drops every preference up front under the Ignore policy', () => {
    // Act
    const prefs = withoutPreferences(preferencesOf(aDemandingPod()));

    // Assess
    expect(prefs.preferredAffinity).toEqual([]);
    expect(prefs.preferredAntiAffinity).toEqual([]);
    expect(prefs.preferredNodeTerms).toEqual([]);
    expect(prefs.spreads.map((s) => s.whenUnsatisfiable)).toEqual(['DoNotSchedule']);
    expect(prefs.requiredTerms).toHaveLength(2);
  });
});

describe('the node requirements a pod implies', () => {
  it('uses the nodeSelector, the first required term and the heaviest preference', () => {
    // Prepare
    const pod = aPod({
      nodeSelector: { team: 'a' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: Label.arch, operator: 'In', values: ['arm64'] }] },
              { matchExpressions: [{ key: Label.arch, operator: 'In', values: ['amd64'] }] },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, preference: { matchExpressions: [zoneIn('light')] } },
            { weight: 9, preference: { matchExpressions: [zoneIn('heavy')] } },
          ],
        },
      },
    });

    // Act
    const reqs = podRequirements(pod, preferencesOf(pod), NO_REQUIREMENTS);

    // Assess
    expect(toNodeSelector(reqs.strict)).toEqual([
      { key: Label.arch, operator: 'In', values: ['arm64'] },
      { key: 'team', operator: 'In', values: ['a'] },
    ]);
    expect(toNodeSelector(reqs.all)).toEqual([
      { key: Label.arch, operator: 'In', values: ['arm64'] },
      { key: 'team', operator: 'In', values: ['a'] },
      { key: Label.zone, operator: 'In', values: ['heavy'] },
    ]);
  });

  it('moves to the next required term once the first is relaxed', () => {
    // Prepare
    const pod = aPod({ affinity: requiredNodeAffinity([zoneIn('a')], [zoneIn('b')]) });
    const relaxed = relax(preferencesOf(pod), false)?.preferences ?? preferencesOf(pod);

    // Act
    const reqs = podRequirements(pod, relaxed, NO_REQUIREMENTS);

    // Assess
    expect(toNodeSelector(reqs.strict)).toEqual([zoneIn('b')]);
  });
});
