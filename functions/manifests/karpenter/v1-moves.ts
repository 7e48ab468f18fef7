/**
 * Fields Karpenter moved or renamed between `v1beta1` and `v1` (Karpenter's v1 migration guide,
 * core `pkg/apis/v1/nodepool_conversion.go`). Files written for v1beta1 are still common in
 * samples and blogs; naming where a field went saves the reader a trip to the guide.
 */

import { formatFieldPath } from '../field-path.ts';
import { isObjectFields } from '../object-fields.ts';

interface Move {
  readonly path: readonly string[];
  readonly hint: string;
}

const MOVES: Readonly<Record<string, readonly Move[]>> = {
  NodePool: [
    {
      path: ['spec', 'template', 'spec', 'kubelet'],
      hint: "in karpenter.sh/v1 the kubelet settings moved to the EC2NodeClass's spec.kubelet",
    },
    {
      path: ['spec', 'disruption', 'expireAfter'],
      hint: 'in karpenter.sh/v1 expireAfter moved to spec.template.spec.expireAfter',
    },
    {
      path: ['spec', 'template', 'spec', 'nodeClassRef', 'apiVersion'],
      hint: 'in karpenter.sh/v1 nodeClassRef names group: karpenter.k8s.aws and kind: EC2NodeClass',
    },
  ],
};

function samePath(a: readonly PropertyKey[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

/** Where an unknown field of a `kind` went in v1, or undefined when it is simply unknown. */
export function movedFieldHint(kind: string, path: readonly PropertyKey[]): string | undefined {
  return MOVES[kind]?.find((move) => samePath(path, move.path))?.hint;
}

function has(object: unknown, path: readonly string[]): boolean {
  let value = object;
  for (const segment of path) {
    if (!isObjectFields(value) || !Object.hasOwn(value, segment)) return false;
    value = value[segment];
  }
  return true;
}

/** `field: where it went` for every moved field a v1beta1 `object` still has. */
export function movedFieldsIn(kind: string, object: unknown): string[] {
  return (MOVES[kind] ?? [])
    .filter((move) => has(object, move.path))
    .map((move) => `${formatFieldPath(move.path)}: ${move.hint}`);
}
