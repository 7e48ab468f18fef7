/** A node.k8s.io/v1 RuntimeClass: the pod overhead it adds and the nodes it schedules onto. */
import type { RuntimeClass } from '../../domain/volumes.ts';
import {
  asFields,
  at,
  defined,
  type Fields,
  optionalFields,
  optionalList,
  optionalStringMap,
} from './fields.ts';
import { readMetadata } from './metadata.ts';
import { optionalQuantities } from './resource-list.ts';
import { readToleration } from './taints.ts';

const OVERHEAD = at(undefined, 'overhead');
const SCHEDULING = at(undefined, 'scheduling');

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toRuntimeClass(object: unknown): RuntimeClass {
  const fields = asFields(object, undefined);
  const meta = readMetadata(fields);
  return defined({
    name: meta.name,
    overhead: readOverhead(fields),
    scheduling: readScheduling(fields),
  });
}

/** The domain keeps the quantities as written; they are still checked here, where the line is known. */
function readOverhead(fields: Fields): RuntimeClass['overhead'] {
  const overhead = optionalFields(fields, 'overhead', undefined);
  if (overhead === undefined) return undefined;
  return defined({ podFixed: optionalQuantities(overhead, 'podFixed', OVERHEAD) });
}

function readScheduling(fields: Fields): RuntimeClass['scheduling'] {
  const scheduling = optionalFields(fields, 'scheduling', undefined);
  if (scheduling === undefined) return undefined;
  return defined({
    nodeSelector: optionalStringMap(scheduling, 'nodeSelector', SCHEDULING),
    tolerations: optionalList(scheduling, 'tolerations', SCHEDULING, readToleration),
  });
}
