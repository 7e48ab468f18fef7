/** Pod affinity, anti-affinity and node affinity, mapped intact (every field the API defines for them). */
import type {
  Affinity,
  NodeAffinity,
  PodAffinity,
  PodAffinityTerm,
  PreferredSchedulingTerm,
  WeightedPodAffinityTerm,
} from '../../domain/pod.ts';
import {
  type At,
  asFields,
  at,
  defined,
  type Fields,
  optionalFields,
  optionalList,
  optionalStringList,
  requiredFields,
  requiredInteger,
  requiredString,
} from './fields.ts';
import { optionalLabelSelector, readNodeSelector, readNodeSelectorTerm } from './selectors.ts';

const REQUIRED = 'requiredDuringSchedulingIgnoredDuringExecution';
const PREFERRED = 'preferredDuringSchedulingIgnoredDuringExecution';

export function optionalAffinity(spec: Fields, parent: At): Affinity | undefined {
  const fields = optionalFields(spec, 'affinity', parent);
  if (fields === undefined) return undefined;
  const position = at(parent, 'affinity');
  return defined({
    nodeAffinity: optionalNested(fields, 'nodeAffinity', position, readNodeAffinity),
    podAffinity: optionalNested(fields, 'podAffinity', position, readPodAffinity),
    podAntiAffinity: optionalNested(fields, 'podAntiAffinity', position, readPodAffinity),
  });
}

function optionalNested<T>(
  fields: Fields,
  key: string,
  parent: At,
  read: (fields: Fields, position: At) => T,
): T | undefined {
  const nested = optionalFields(fields, key, parent);
  return nested === undefined ? undefined : read(nested, at(parent, key));
}

function readNodeAffinity(fields: Fields, position: At): NodeAffinity {
  const required = optionalFields(fields, REQUIRED, position);
  return defined({
    [REQUIRED]:
      required === undefined ? undefined : readNodeSelector(required, at(position, REQUIRED)),
    [PREFERRED]: optionalList(fields, PREFERRED, position, readPreferredSchedulingTerm),
  });
}

function readPreferredSchedulingTerm(item: unknown, position: At): PreferredSchedulingTerm {
  const fields = asFields(item, position);
  return {
    weight: requiredInteger(fields, 'weight', position),
    preference: readNodeSelectorTerm(
      requiredFields(fields, 'preference', position),
      at(position, 'preference'),
    ),
  };
}

function readPodAffinity(fields: Fields, position: At): PodAffinity {
  return defined({
    [REQUIRED]: optionalList(fields, REQUIRED, position, readPodAffinityTerm),
    [PREFERRED]: optionalList(fields, PREFERRED, position, readWeightedPodAffinityTerm),
  });
}

function readPodAffinityTerm(item: unknown, position: At): PodAffinityTerm {
  const fields = asFields(item, position);
  return defined({
    labelSelector: optionalLabelSelector(fields, 'labelSelector', position),
    namespaces: optionalStringList(fields, 'namespaces', position),
    namespaceSelector: optionalLabelSelector(fields, 'namespaceSelector', position),
    topologyKey: requiredString(fields, 'topologyKey', position),
    matchLabelKeys: optionalStringList(fields, 'matchLabelKeys', position),
    mismatchLabelKeys: optionalStringList(fields, 'mismatchLabelKeys', position),
  });
}

function readWeightedPodAffinityTerm(item: unknown, position: At): WeightedPodAffinityTerm {
  const fields = asFields(item, position);
  const term = requiredFields(fields, 'podAffinityTerm', position);
  return {
    weight: requiredInteger(fields, 'weight', position),
    podAffinityTerm: readPodAffinityTerm(term, at(position, 'podAffinityTerm')),
  };
}
