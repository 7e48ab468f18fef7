/**
 * karpenter.sh/v1 nodeclaims, as Karpenter's CRD serves them (core: pkg/apis/crds/
 * karpenter.sh_nodeclaims.yaml): cluster-scoped, with a status subresource and a tracked
 * generation. As for every custom resource with a status subresource, a create drops the status:
 * Karpenter writes it afterwards through `/status`. Of the CRD's schema only what an adopter relies on is checked: the fields it
 * requires (`spec`, `spec.requirements`, `spec.nodeClassRef` and its group, kind and name) and
 * the CEL rule that makes the spec immutable. Deletion and finalizers behave as for any object.
 */

import { type FieldError, invalid, required } from '../field-errors.ts';
import { isJsonObject, type JsonObject, jsonEqual, objectAt, valueAt } from '../json.ts';
import { describeResource } from '../resource-descriptor.ts';

const NODE_CLASS_REF_FIELDS = ['group', 'kind', 'name'] as const;

/** The schema's `required` lists, reported as the structural schema validator does. */
function validateNodeClaim(claim: JsonObject): FieldError[] {
  const spec = objectAt(claim, 'spec');
  if (spec === undefined) return [required('spec')];
  const errors: FieldError[] = [];
  if (valueAt(spec, 'requirements') === undefined) errors.push(required('spec.requirements'));
  const ref = valueAt(spec, 'nodeClassRef');
  if (!isJsonObject(ref)) return [...errors, required('spec.nodeClassRef')];
  for (const field of NODE_CLASS_REF_FIELDS) {
    if (ref[field] === undefined) errors.push(required(`spec.nodeClassRef.${field}`));
  }
  return errors;
}

/** `x-kubernetes-validations: self == oldSelf` on spec, worded as a CEL rule failure. */
function validateNodeClaimUpdate(next: JsonObject, previous: JsonObject): FieldError[] {
  if (jsonEqual(next.spec, previous.spec)) return [];
  return [invalid('spec', '"object"', 'spec is immutable')];
}

/** The custom resource strategy's `PrepareForCreate` with the status subresource enabled. */
function dropStatus(claim: JsonObject): void {
  delete claim.status;
}

export const nodeClaims = describeResource({
  resource: 'nodeclaims',
  group: 'karpenter.sh',
  version: 'v1',
  kind: 'NodeClaim',
  namespaced: false,
  hasStatus: true,
  tracksGeneration: true,
  customResource: true,
  strategy: {
    prepareForCreate: dropStatus,
    validate: validateNodeClaim,
    validateUpdate: validateNodeClaimUpdate,
  },
});
