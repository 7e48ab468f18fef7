/** Label selectors and node selector terms, checked and mapped field for field. */
import type { LabelSelector, LabelSelectorRequirement } from '../../domain/label-selector.ts';
import type { NodeSelectorTerm } from '../../domain/pod.ts';
import type { NodeSelectorRequirement } from '../../domain/requirements/requirement.ts';
import {
  type At,
  asFields,
  at,
  defined,
  type Fields,
  optionalFields,
  optionalList,
  optionalStringList,
  optionalStringMap,
  requiredEnum,
  requiredString,
} from './fields.ts';

const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
/** Node affinity and PersistentVolume node affinity accept these (Karpenter's Gte/Lte are NodePool-only). */
const NODE_SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] as const;

export function readLabelSelector(value: unknown, position: At): LabelSelector {
  const fields = asFields(value, position);
  return defined({
    matchLabels: optionalStringMap(fields, 'matchLabels', position),
    matchExpressions: optionalList(fields, 'matchExpressions', position, readSelectorRequirement),
  });
}

export function optionalLabelSelector(
  fields: Fields,
  key: string,
  parent: At,
): LabelSelector | undefined {
  const value = optionalFields(fields, key, parent);
  return value === undefined ? undefined : readLabelSelector(value, at(parent, key));
}

function readSelectorRequirement(item: unknown, position: At): LabelSelectorRequirement {
  const fields = asFields(item, position);
  return defined({
    key: requiredString(fields, 'key', position),
    operator: requiredEnum(fields, 'operator', position, SELECTOR_OPERATORS),
    values: optionalStringList(fields, 'values', position),
  });
}

export function readNodeSelectorTerm(item: unknown, position: At): NodeSelectorTerm {
  const fields = asFields(item, position);
  return defined({
    matchExpressions: optionalList(
      fields,
      'matchExpressions',
      position,
      readNodeSelectorRequirement,
    ),
    matchFields: optionalList(fields, 'matchFields', position, readNodeSelectorRequirement),
  });
}

function readNodeSelectorRequirement(item: unknown, position: At): NodeSelectorRequirement {
  const fields = asFields(item, position);
  return defined({
    key: requiredString(fields, 'key', position),
    operator: requiredEnum(fields, 'operator', position, NODE_SELECTOR_OPERATORS),
    values: optionalStringList(fields, 'values', position),
  });
}

/** `{nodeSelectorTerms: [...]}`, the shape shared by required node affinity and PV node affinity. */
export function readNodeSelector(
  value: unknown,
  position: At,
): { readonly nodeSelectorTerms: readonly NodeSelectorTerm[] } {
  const fields = asFields(value, position);
  return {
    nodeSelectorTerms:
      optionalList(fields, 'nodeSelectorTerms', position, readNodeSelectorTerm) ?? [],
  };
}
