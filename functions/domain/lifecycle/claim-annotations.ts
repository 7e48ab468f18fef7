/**
 * The annotations a NodeClaim carries, as Karpenter writes them: its NodePool template's
 * annotations and the hashes of the template and the EC2NodeClass it was made with (core
 * nodeclaimtemplate.go `ToNodeClaim`; aws cloudprovider.go `Create`). Registration copies them
 * all onto the Node (core nodeclaim/lifecycle/registration.go `syncNode`).
 */
import type { Labels } from '../label-selector.ts';
import { Annotation } from '../labels.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';

export function claimAnnotations(
  record: Pick<NodeClaimRecord, 'annotations' | 'nodePoolHash' | 'nodeClassHash'>,
): Labels {
  const annotations: Record<string, string> = { ...record.annotations };
  if (record.nodePoolHash !== undefined) {
    annotations[Annotation.nodePoolHash] = record.nodePoolHash.hash;
    annotations[Annotation.nodePoolHashVersion] = record.nodePoolHash.version;
  }
  if (record.nodeClassHash !== undefined) {
    annotations[Annotation.nodeClassHash] = record.nodeClassHash.hash;
    annotations[Annotation.nodeClassHashVersion] = record.nodeClassHash.version;
  }
  return annotations;
}
