/** Topology spread constraints, with the enumerations the API server enforces. */
import type { TopologySpreadConstraint } from '../../domain/pod.ts';
import {
  type At,
  asFields,
  defined,
  optionalEnum,
  optionalInteger,
  optionalStringList,
  requiredEnum,
  requiredInteger,
  requiredString,
} from './fields.ts';
import { optionalLabelSelector } from './selectors.ts';

const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'] as const;
const POLICIES = ['Honor', 'Ignore'] as const;

export function readTopologySpreadConstraint(
  item: unknown,
  position: At,
): TopologySpreadConstraint {
  const fields = asFields(item, position);
  return defined({
    maxSkew: requiredInteger(fields, 'maxSkew', position),
    topologyKey: requiredString(fields, 'topologyKey', position),
    whenUnsatisfiable: requiredEnum(fields, 'whenUnsatisfiable', position, WHEN_UNSATISFIABLE),
    labelSelector: optionalLabelSelector(fields, 'labelSelector', position),
    minDomains: optionalInteger(fields, 'minDomains', position),
    nodeAffinityPolicy: optionalEnum(fields, 'nodeAffinityPolicy', position, POLICIES),
    nodeTaintsPolicy: optionalEnum(fields, 'nodeTaintsPolicy', position, POLICIES),
    matchLabelKeys: optionalStringList(fields, 'matchLabelKeys', position),
  });
}
