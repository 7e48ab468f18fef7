/** A pod's volumes, as far as they bind it to storage: claims and generic ephemeral volumes. */
import type { PodVolume } from '../../domain/pod.ts';
import {
  type At,
  asFields,
  at,
  defined,
  EMPTY_FIELDS,
  type Fields,
  optionalFields,
  optionalString,
  requiredString,
} from './fields.ts';

export function readPodVolume(item: unknown, position: At): PodVolume {
  const fields = asFields(item, position);
  return defined({
    name: requiredString(fields, 'name', position),
    persistentVolumeClaim: readClaimSource(fields, position),
    ephemeral: readEphemeral(fields, position),
  });
}

function readClaimSource(fields: Fields, parent: At): PodVolume['persistentVolumeClaim'] {
  const source = optionalFields(fields, 'persistentVolumeClaim', parent);
  if (source === undefined) return undefined;
  return { claimName: requiredString(source, 'claimName', at(parent, 'persistentVolumeClaim')) };
}

/** Only the storage class of the claim template matters for placement. */
function readEphemeral(fields: Fields, parent: At): PodVolume['ephemeral'] {
  const ephemeral = optionalFields(fields, 'ephemeral', parent);
  if (ephemeral === undefined) return undefined;
  const ephemeralAt = at(parent, 'ephemeral');
  const template = optionalFields(ephemeral, 'volumeClaimTemplate', ephemeralAt) ?? EMPTY_FIELDS;
  const templateAt = at(ephemeralAt, 'volumeClaimTemplate');
  const spec = optionalFields(template, 'spec', templateAt) ?? EMPTY_FIELDS;
  return defined({
    storageClassName: optionalString(spec, 'storageClassName', at(templateAt, 'spec')),
  });
}
