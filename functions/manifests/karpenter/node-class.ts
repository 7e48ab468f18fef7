/**
 * `karpenter.k8s.aws/v1` EC2NodeClass: the complete document as users write it and as
 * `kubectl get ec2nodeclasses -o yaml` prints it, with the CRD's validation and defaults
 * (aws: pkg/apis/v1/ec2nodeclass.go, ec2nodeclass_status.go; the generated CRD's CEL rules).
 */
import * as z from 'zod';
import { type AmiFamily, aliasFamily, type EC2NodeClass } from '../../domain/node-class.ts';
import type { Assignable } from './assignable.ts';
import { blockDeviceMappings } from './block-device-mappings.ts';
import { nonEmpty, nonNegativeInt } from './fields.ts';
import { kubelet } from './kubelet.ts';
import {
  connectionTracking,
  cpuOptions,
  metadataOptions,
  networkInterfaces,
} from './launch-settings.ts';
import { nodeClassStatus } from './node-class-status.ts';
import { nodeClassTags } from './node-class-tags.ts';
import { objectMeta } from './object-meta.ts';
import { parseDocument } from './parse-document.ts';
import {
  amiSelectorTerms,
  capacityReservationSelectorTerms,
  placementGroupSelector,
  securityGroupSelectorTerms,
  subnetSelectorTerms,
} from './selector-terms.ts';

export const EC2_NODE_CLASS_TYPE = {
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
} as const;

const AMI_FAMILIES = [
  'AL2',
  'AL2023',
  'Bottlerocket',
  'Custom',
  'Windows2019',
  'Windows2022',
  'Windows2025',
] as const satisfies readonly AmiFamily[];

/**
 * The fields of the v1.14.1 CRD (aws: pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml), and
 * only those: the API server prunes any other, so accepting one here would promise a setting
 * Karpenter never had. Fields no launch acts on yet are refused rather than dropped.
 */
const fields = z.strictObject({
  subnetSelectorTerms,
  securityGroupSelectorTerms,
  capacityReservationSelectorTerms: capacityReservationSelectorTerms.optional(),
  placementGroupSelector: placementGroupSelector.optional(),
  associatePublicIPAddress: z.boolean().optional(),
  ipPrefixCount: nonNegativeInt.optional(),
  amiSelectorTerms,
  amiFamily: z.enum(AMI_FAMILIES).optional(),
  userData: z.string().optional(),
  role: nonEmpty('role').optional(),
  instanceProfile: nonEmpty('instanceProfile').optional(),
  tags: nodeClassTags.optional(),
  kubelet: kubelet.optional(),
  blockDeviceMappings: blockDeviceMappings.optional(),
  instanceStorePolicy: z.enum(['RAID0']).optional(),
  detailedMonitoring: z.boolean().optional(),
  metadataOptions,
  cpuOptions: cpuOptions.optional(),
  networkInterfaces: networkInterfaces.optional(),
  connectionTracking: connectionTracking.optional(),
  context: z.string().optional(),
});
type Spec = z.output<typeof fields>;

/** Nodes need exactly one identity: a role Karpenter wraps in a profile, or a ready profile. */
function checkIdentity(spec: Spec, ctx: z.RefinementCtx): void {
  if ((spec.role === undefined) !== (spec.instanceProfile === undefined)) return;
  const both = spec.role !== undefined;
  ctx.addIssue({
    code: 'custom',
    message: both
      ? 'role and instanceProfile are mutually exclusive; specify exactly one'
      : 'specify exactly one of role or instanceProfile',
    path: [both ? 'instanceProfile' : 'role'],
  });
}

/** amiFamily decides user data and default disks: it must agree with an alias, or be given. */
function amiFamilyProblem(spec: Spec): string | undefined {
  const alias = spec.amiSelectorTerms.find((term) => term.alias !== undefined)?.alias;
  if (alias === undefined) {
    return spec.amiFamily === undefined
      ? 'amiFamily is required when no amiSelectorTerm uses an alias'
      : undefined;
  }
  const implied = aliasFamily(alias);
  if (spec.amiFamily === undefined || spec.amiFamily === 'Custom' || spec.amiFamily === implied) {
    return undefined;
  }
  return `amiFamily ${spec.amiFamily} does not match alias ${alias}; use ${implied} or Custom`;
}

function checkAmiFamily(spec: Spec, ctx: z.RefinementCtx): void {
  const message = amiFamilyProblem(spec);
  if (message !== undefined) ctx.addIssue({ code: 'custom', message, path: ['amiFamily'] });
}

const spec = fields.superRefine((value, ctx) => {
  checkIdentity(value, ctx);
  checkAmiFamily(value, ctx);
});

export const ec2NodeClassSchema = z.strictObject({
  apiVersion: z.literal(EC2_NODE_CLASS_TYPE.apiVersion),
  kind: z.literal(EC2_NODE_CLASS_TYPE.kind),
  metadata: objectMeta,
  spec,
  status: nodeClassStatus.optional(),
});

export type EC2NodeClassDocument = Assignable<z.output<typeof ec2NodeClassSchema>, EC2NodeClass>;

/**
 * Validates an EC2NodeClass as Karpenter's CRD would and fills in its defaults.
 * @throws ManifestError naming the first invalid field, e.g. `spec.amiSelectorTerms[0].alias`
 */
export function parseEC2NodeClass(doc: unknown): EC2NodeClassDocument {
  return parseDocument(ec2NodeClassSchema, EC2_NODE_CLASS_TYPE, doc);
}
