import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import type { Pod } from '../../../../functions/domain/pod.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
} from '../../../../functions/domain/volumes.ts';
import { aPod } from '../../../support/builders.ts';
import {
  aSpread,
  placementOf,
  planFor,
  podsPerZone,
  zoneIn,
} from '../../../support/scheduling-builders.ts';

function withClaim(name: string, claimName: string, extra: Parameters<typeof aPod>[0] = {}): Pod {
  return aPod({
    name,
    cpu: '1',
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
    ...extra,
  });
}

const ZONAL_EBS: StorageClass = {
  name: 'zonal',
  provisioner: 'ebs.csi.aws.com',
  volumeBindingMode: 'WaitForFirstConsumer',
  allowedTopologies: [{ matchLabelExpressions: [{ key: Label.zone, values: ['test-zone-c'] }] }],
};

describe('volume topology', () => {
  it("follows a bound volume's node affinity", () => {
    // Prepare
    const claim: PersistentVolumeClaim = {
      namespace: 'default',
      name: 'data-0',
      volumeName: 'pv-0',
    };
    const volume: PersistentVolume = {
      name: 'pv-0',
      nodeAffinity: {
        required: { nodeSelectorTerms: [{ matchExpressions: [zoneIn('test-zone-b')] }] },
      },
    };
    const pod = withClaim('db-0', 'data-0');

    // Act
    const plan = planFor({
      pods: [pod],
      persistentVolumeClaims: [claim],
      persistentVolumes: [volume],
    });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim', zone: 'test-zone-b' });
  });

  it("follows an unbound claim's StorageClass allowed topologies", () => {
    // Prepare
    const claim: PersistentVolumeClaim = {
      namespace: 'default',
      name: 'data-0',
      storageClassName: 'zonal',
    };
    const pod = withClaim('db-0', 'data-0');

    // Act
    const plan = planFor({
      pods: [pod],
      persistentVolumeClaims: [claim],
      storageClasses: [ZONAL_EBS],
    });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ zone: 'test-zone-c' });
  });

  it('follows the StorageClass of a generic ephemeral volume', () => {
    // Prepare
    const pod = aPod({
      name: 'scratch',
      cpu: '1',
      volumes: [{ name: 'tmp', ephemeral: { storageClassName: 'zonal' } }],
    });

    // Act
    const plan = planFor({ pods: [pod], storageClasses: [ZONAL_EBS] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ zone: 'test-zone-c' });
  });

  it('reports a pod whose claim does not exist', () => {
    // Prepare
    const pod = withClaim('db-0', 'missing');

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(plan.unschedulable).toEqual([
      {
        pod: 'default/db-0',
        reason: 'persistentvolumeclaim "missing" not found',
        reasons: [{ code: 'Volumes', message: 'persistentvolumeclaim "missing" not found' }],
      },
    ]);
  });

  it('reports a pod whose StorageClass does not exist', () => {
    // Prepare
    const claim: PersistentVolumeClaim = {
      namespace: 'default',
      name: 'data-0',
      storageClassName: 'gone',
    };
    const pod = withClaim('db-0', 'data-0');

    // Act
    const plan = planFor({ pods: [pod], persistentVolumeClaims: [claim] });

    // Assess
    expect(plan.unschedulable[0]?.reason).toBe('storageclass "gone" not found');
  });

  it('reports a pod whose bound volume does not exist', () => {
    // Prepare
    const claim: PersistentVolumeClaim = {
      namespace: 'default',
      name: 'data-0',
      volumeName: 'pv-gone',
    };
    const pod = withClaim('db-0', 'data-0');

    // Act
    const plan = planFor({ pods: [pod], persistentVolumeClaims: [claim] });

    // Assess
    expect(plan.unschedulable[0]?.reason).toBe('persistentvolume "pv-gone" not found');
  });

  it('looks the claim up in the namespace of the pod', () => {
    // Prepare
    const claim: PersistentVolumeClaim = {
      namespace: 'other',
      name: 'data-0',
      storageClassName: 'zonal',
    };
    const pod = withClaim('db-0', 'data-0');

    // Act
    const plan = planFor({
      pods: [pod],
      persistentVolumeClaims: [claim],
      storageClasses: [ZONAL_EBS],
    });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'unschedulable' });
  });

  it('pins the node but leaves topology spread counting to the pods', () => {
    // Prepare
    const claims: PersistentVolumeClaim[] = [0, 1].map((i) => ({
      namespace: 'default',
      name: `data-${i}`,
      storageClassName: 'zonal',
    }));
    const pods = [0, 1].map((i) =>
      withClaim(`db-${i}`, `data-${i}`, {
        labels: { app: 'db' },
        topologySpreadConstraints: [aSpread({ matchLabels: { app: 'db' }, maxSkew: 2 })],
      }),
    );

    // Act
    const plan = planFor({ pods, persistentVolumeClaims: claims, storageClasses: [ZONAL_EBS] });

    // Assess
    expect(podsPerZone(plan)).toEqual({ 'test-zone-c': 2 });
  });
});
