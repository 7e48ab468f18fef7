/** Label selectors and node selector terms, checked and mapped field for field. */
import * as z from 'zod';
import type { LabelSelector } from '../../domain/label-selector.ts';
import type { NodeSelectorTerm } from '../../domain/pod.ts';
import { defined, listOf, listOrEmpty, oneOf, optional, stringMap, text } from './schema.ts';

const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
/** Node affinity and PersistentVolume node affinity accept these (Karpenter's Gte/Lte are NodePool-only). */
const NODE_SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] as const;

function requirementOf<const T extends readonly [string, ...string[]]>(operators: T) {
  return z
    .object({ key: text, operator: oneOf(operators), values: listOf(text) })
    .transform((r) => defined(r));
}

export const labelSelector = z
  .object({
    matchLabels: optional(stringMap),
    matchExpressions: listOf(requirementOf(SELECTOR_OPERATORS)),
  })
  .transform((s): LabelSelector => defined(s));

const nodeSelectorRequirement = requirementOf(NODE_SELECTOR_OPERATORS);

export const nodeSelectorTerm = z
  .object({
    matchExpressions: listOf(nodeSelectorRequirement),
    matchFields: listOf(nodeSelectorRequirement),
  })
  .transform((term): NodeSelectorTerm => defined(term));

/** `{nodeSelectorTerms: [...]}`, the shape shared by required node affinity and PV node affinity. */
export const nodeSelector = z.object({ nodeSelectorTerms: listOrEmpty(nodeSelectorTerm) });
