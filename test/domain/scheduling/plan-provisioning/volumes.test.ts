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
  type Placement,
  type PlanOptions,
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

/** The claim `data-0` the pod `db-0` mounts, in the pod's namespace unless said otherwise. */
function dataClaim(
  fields: Omit<PersistentVolumeClaim, 'name' | 'namespace'>,
  namespace = 'default',
) {
  return { namespace, name: 'data-0', ...fields };
}

const ZONAL_EBS: StorageClass = {
  name: 'zonal',
  provisioner: 'ebs.csi.aws.com',
  volumeBindingMode: 'WaitForFirstConsumer',
  allowedTopologies: [{ matchLabelExpressions: [{ key: Label.zone, values: ['test-zone-c'] }] }],
};

const PV_IN_ZONE_B: PersistentVolume = {
  name: 'pv-0',
  nodeAffinity: {
    required: { nodeSelectorTerms: [{ matchExpressions: [zoneIn('test-zone-b')] }] },
  },
};

describe('volume topology', () => {
  it.each<{
    readonly name: string;
    readonly pod: Pod;
    readonly cluster: Omit<PlanOptions, 'pods'>;
    readonly placement: Partial<Placement>;
  }>([
    {
      name: "follows a bound volume's node affinity",
      pod: withClaim('db-0', 'data-0'),
      cluster: {
        persistentVolumeClaims: [dataClaim({ volumeName: 'pv-0' })],
        persistentVolumes: [PV_IN_ZONE_B],
      },
      placement: { kind: 'claim', zone: 'test-zone-b' },
    },
    {
      name: "follows an unbound claim's StorageClass allowed topologies",
      pod: withClaim('db-0', 'data-0'),
      cluster: {
        persistentVolumeClaims: [dataClaim({ storageClassName: 'zonal' })],
        storageClasses: [ZONAL_EBS],
      },
      placement: { zone: 'test-zone-c' },
    },
    {
      name: 'follows the StorageClass of a generic ephemeral volume',
      pod: aPod({
        name: 'scratch',
        cpu: '1',
        volumes: [{ name: 'tmp', ephemeral: { storageClassName: 'zonal' } }],
      }),
      cluster: { storageClasses: [ZONAL_EBS] },
      placement: { zone: 'test-zone-c' },
    },
    {
      name: 'looks the claim up in the namespace of the pod',
      pod: withClaim('db-0', 'data-0'),
      cluster: {
        persistentVolumeClaims: [dataClaim({ storageClassName: 'zonal' }, 'other')],
        storageClasses: [ZONAL_EBS],
      },
      placement: { kind: 'unschedulable' },
    },
  ])('$name', ({ pod, cluster, placement }) => {
    // Act
    const plan = planFor({ pods: [pod], ...cluster });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject(placement);
  });

  it.each<{
    readonly missing: string;
    readonly mounts: string;
    readonly claims: readonly PersistentVolumeClaim[];
    readonly reason: string;
  }>([
    {
      missing: 'claim',
      mounts: 'missing',
      claims: [],
      reason: 'persistentvolumeclaim "missing" not found',
    },
    {
      missing: 'StorageClass',
      mounts: 'data-0',
      claims: [dataClaim({ storageClassName: 'gone' })],
      reason: 'storageclass "gone" not found',
    },
    {
      missing: 'bound volume',
      mounts: 'data-0',
      claims: [dataClaim({ volumeName: 'pv-gone' })],
      reason: 'persistentvolume "pv-gone" not found',
    },
  ])('reports a pod whose $missing does not exist', ({ mounts, claims, reason }) => {
    // Prepare
    const pod = withClaim('db-0', mounts);

    // Act
    const plan = planFor({ pods: [pod], persistentVolumeClaims: claims });

    // Assess
    expect(plan.unschedulable).toEqual([
      { pod: 'default/db-0', reason, reasons: [{ code: 'Volumes', message: reason }] },
    ]);
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
