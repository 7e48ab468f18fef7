/**
 * Nodesmith's readers against Karpenter's released CRDs (v1.14.1, test/fixtures/public/karpenter-crds):
 * every field a CRD has is set by a sample here and is either accepted or refused as not
 * supported yet, at its own path; no field the CRD lacks is accepted. A field a new Karpenter
 * release adds fails the first check until a sample sets it and the reader decides on it.
 */
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  nodeClaimSchema,
  parseNodeClaim,
} from '../../../functions/manifests/karpenter/node-claim.ts';
import {
  ec2NodeClassSchema,
  parseEC2NodeClass,
} from '../../../functions/manifests/karpenter/node-class.ts';
import { nodePoolSchema, parseNodePool } from '../../../functions/manifests/karpenter/node-pool.ts';
import {
  aMinimalNodeClaim,
  aMinimalNodeClass,
  aMinimalNodePool,
} from '../../support/karpenter-documents.ts';
import { catchManifestError } from './catch-manifest-error.ts';
import {
  crdSpecSchema,
  type FieldSchema,
  fieldPaths,
  fieldsSet,
  readerSpecSchema,
} from './crd-schema.ts';
import { withField } from './with-field.ts';

type Spec = Record<string, unknown>;
type Document = Record<string, unknown> & { readonly spec: Spec };

interface Reader {
  readonly kind: string;
  readonly crd: FieldSchema;
  readonly schema: z.ZodType;
  readonly parse: (doc: unknown) => unknown;
  /** Valid documents that, between them, set every field of the CRD. */
  readonly samples: readonly Document[];
  /** CRD fields refused with `not supported yet: <field>`: validated, never dropped. */
  readonly notSupportedYet: readonly string[];
}

/** `base` with these spec fields set; `undefined` removes one. */
function withSpec(base: Document, fields: Spec): Document {
  return Object.entries(fields).reduce<Document>(
    (doc, [key, value]) => withField(doc, ['spec', key], value) as Document,
    base,
  );
}

const TAG = { team: 'team-a' };
const TAINT = { key: 'example.com/special', value: 'yes', effect: 'NoSchedule' };
const RESTRICTED_REQUIREMENT = {
  key: 'karpenter.k8s.aws/instance-category',
  operator: 'In',
  values: ['c', 'm'],
  minValues: 2,
};
const TEMPLATE_SPEC = {
  taints: [{ ...TAINT, timeAdded: '2024-08-07T15:19:49Z' }],
  startupTaints: [
    {
      key: 'example.com/init',
      value: 'pending',
      effect: 'NoExecute',
      timeAdded: '2024-08-07T15:19:49Z',
    },
  ],
  expireAfter: '720h',
  terminationGracePeriod: '48h',
  requirements: [RESTRICTED_REQUIREMENT],
};

const nodeClass = (fields: Spec) => withSpec(aMinimalNodeClass(), fields);

const EC2_NODE_CLASS: Reader = {
  kind: 'EC2NodeClass',
  crd: crdSpecSchema('karpenter.k8s.aws_ec2nodeclasses.yaml'),
  schema: ec2NodeClassSchema,
  parse: parseEC2NodeClass,
  samples: [
    aMinimalNodeClass(),
    nodeClass({
      amiFamily: 'AL2023',
      amiSelectorTerms: [
        { id: 'ami-0123456789abcdef0' },
        { name: 'my-ami', owner: 'self' },
        { tags: TAG },
        { ssmParameter: 'my-parameter' },
      ],
    }),
    nodeClass({
      subnetSelectorTerms: [{ id: 'subnet-0123456789abcdef0' }],
      securityGroupSelectorTerms: [{ id: 'sg-0123456789abcdef0' }, { name: 'my-group' }],
    }),
    nodeClass({ role: undefined, instanceProfile: 'my-profile' }),
    nodeClass({
      associatePublicIPAddress: true,
      detailedMonitoring: true,
      context: 'my-context',
      userData: 'echo "Hello world"',
      instanceStorePolicy: 'RAID0',
      tags: TAG,
      metadataOptions: {
        httpEndpoint: 'enabled',
        httpProtocolIPv6: 'disabled',
        httpPutResponseHopLimit: 2,
        httpTokens: 'required',
      },
      cpuOptions: { nestedVirtualization: 'disabled' },
    }),
    nodeClass({
      blockDeviceMappings: [
        {
          deviceName: '/dev/xvda',
          rootVolume: true,
          ebs: {
            volumeSize: '100Gi',
            volumeType: 'gp3',
            iops: 3000,
            throughput: 125,
            encrypted: true,
            kmsKeyID: 'alias/nodes',
            snapshotID: 'snap-0123456789',
            volumeInitializationRate: 100,
            deleteOnTermination: true,
          },
        },
      ],
    }),
    nodeClass({
      kubelet: {
        clusterDNS: ['10.0.1.100'],
        maxPods: 110,
        podsPerCore: 10,
        systemReserved: { cpu: '100m' },
        kubeReserved: { cpu: '200m' },
        evictionHard: { 'memory.available': '5%' },
        evictionSoft: { 'memory.available': '10%' },
        evictionSoftGracePeriod: { 'memory.available': '1m' },
        evictionMaxPodGracePeriod: 60,
        imageGCHighThresholdPercent: 85,
        imageGCLowThresholdPercent: 80,
        cpuCFSQuota: true,
      },
    }),
    nodeClass({
      capacityReservationSelectorTerms: [
        { id: 'cr-0123456789abcdef0' },
        { tags: TAG, ownerID: '012345678901' },
        { instanceMatchCriteria: 'open' },
      ],
    }),
    nodeClass({ placementGroupSelector: { name: 'my-pg' } }),
    nodeClass({ placementGroupSelector: { id: 'pg-0123456789abcdef0' } }),
    nodeClass({ ipPrefixCount: 1 }),
    nodeClass({ ipPrefixCount: 0 }),
    nodeClass({
      networkInterfaces: [{ networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' }],
    }),
    // aws: ec2nodeclass_validation_cel_test.go, "should succeed with valid multiple network interfaces"
    nodeClass({
      networkInterfaces: [
        { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' },
        { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only' },
        { networkCardIndex: 1, deviceIndex: 0, interfaceType: 'efa-only' },
        { networkCardIndex: 1, deviceIndex: 1, interfaceType: 'interface' },
      ],
    }),
    nodeClass({ networkInterfaces: [] }),
    nodeClass({
      connectionTracking: { tcpEstablishedTimeout: 300, udpStreamTimeout: 120, udpTimeout: 45 },
    }),
    nodeClass({ connectionTracking: { tcpEstablishedTimeout: 432000 } }),
  ],
  notSupportedYet: [],
};

const NODE_POOL: Reader = {
  kind: 'NodePool',
  crd: crdSpecSchema('karpenter.sh_nodepools.yaml'),
  schema: nodePoolSchema,
  parse: parseNodePool,
  samples: [
    aMinimalNodePool(),
    withSpec(aMinimalNodePool(), {
      disruption: {
        consolidationPolicy: 'WhenEmptyOrUnderutilized',
        consolidateAfter: '1m',
        budgets: [
          { nodes: '10%', reasons: ['Drifted'], schedule: '0 9 * * mon-fri', duration: '8h' },
        ],
      },
      limits: { cpu: '1000' },
      weight: 10,
    }),
    withSpec(aMinimalNodePool(), { replicas: 3 }),
    withField(aMinimalNodePool(), ['spec', 'template'], {
      metadata: { labels: TAG, annotations: { 'example.com/owner': 'team-a' } },
      spec: { ...aMinimalNodePool().spec.template.spec, ...TEMPLATE_SPEC },
    }) as Document,
  ],
  notSupportedYet: [],
};

const NODE_CLAIM: Reader = {
  kind: 'NodeClaim',
  crd: crdSpecSchema('karpenter.sh_nodeclaims.yaml'),
  schema: nodeClaimSchema,
  parse: parseNodeClaim,
  samples: [
    aMinimalNodeClaim(),
    withSpec(aMinimalNodeClaim(), {
      ...TEMPLATE_SPEC,
      requirements: [...aMinimalNodeClaim().spec.requirements, RESTRICTED_REQUIREMENT],
      resources: { requests: { cpu: '1', memory: '2Gi' } },
    }),
  ],
  notSupportedYet: [],
};

/** The refused field that `field` is, or lies under. */
function refusedAncestor(reader: Reader, field: string): string | undefined {
  return reader.notSupportedYet.find(
    (refused) =>
      field === refused || field.startsWith(`${refused}.`) || field.startsWith(`${refused}[`),
  );
}

/**
 * The samples that set `field`: for a field read as it is, only those that set no refused field,
 * so the refusal of another cannot hide whether this one is accepted.
 */
function samplesSetting(
  reader: Reader,
  field: string,
  refused: string | undefined,
): readonly Document[] {
  return reader.samples.filter((sample) => {
    const set = fieldsSet(sample.spec, reader.crd);
    if (!set.includes(field)) return false;
    return (
      refused !== undefined || set.every((other) => refusedAncestor(reader, other) === undefined)
    );
  });
}

describe.each([EC2_NODE_CLASS, NODE_POOL, NODE_CLAIM])(
  '$kind against its released CRD',
  (reader) => {
    const crdFields = fieldPaths(reader.crd);

    it('has samples that set only fields the CRD has', () => {
      // Prepare
      const known = new Set(crdFields);

      // Act
      const strangers = reader.samples.flatMap((sample) => fieldsSet(sample.spec, reader.crd));

      // Assess
      expect(strangers.filter((field) => !known.has(field))).toEqual([]);
    });

    it.each(crdFields)('accepts %s, or refuses it as not supported yet', (field) => {
      // Prepare
      const refused = refusedAncestor(reader, field);
      const samples = samplesSetting(reader, field, refused);
      expect(samples, `no sample sets ${field}: add one, and act on it or refuse it`).not.toEqual(
        [],
      );

      for (const sample of samples) {
        // Act
        const act = () => reader.parse(sample);

        // Assess
        if (refused === undefined) {
          expect(act, `${field} should be accepted`).not.toThrow();
        } else {
          const error = catchManifestError(act);
          expect(error.location.path).toBe(refused);
          expect(error.detail).toContain(`not supported yet: ${refused}`);
        }
      }
    });

    it.each(fieldPaths(readerSpecSchema(reader.schema)))('reads %s, which the CRD has', (field) => {
      // Prepare
      const known = new Set(crdFields);

      // Act
      const inCrd = known.has(field);

      // Assess
      expect(inCrd, `${field} is accepted but Karpenter's CRD has no such field`).toBe(true);
    });
  },
);

describe('EC2NodeClass fields outside the CRD', () => {
  it('refuses enclaveOptions, which no released CRD has, as an unknown field', () => {
    // Prepare
    const doc = nodeClass({ enclaveOptions: { enabled: true } });

    // Act
    const error = catchManifestError(() => parseEC2NodeClass(doc));

    // Assess
    expect(error.location.path).toBe('spec.enclaveOptions');
    expect(error.detail).toBe('unknown field "enclaveOptions"');
  });

  it('refuses nested virtualization, which needs instance types the catalog cannot tell apart yet', () => {
    // Prepare
    const doc = nodeClass({ cpuOptions: { nestedVirtualization: 'enabled' } });

    // Act
    const error = catchManifestError(() => parseEC2NodeClass(doc));

    // Assess
    expect(error.location.path).toBe('spec.cpuOptions.nestedVirtualization');
    expect(error.detail).toContain(
      'not supported yet: spec.cpuOptions.nestedVirtualization: enabled',
    );
  });
});
