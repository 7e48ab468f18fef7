/** An apps/v1 DaemonSet object as a domain DaemonSet: its pod template. */
import type { DaemonSet } from '../../domain/daemon-set.ts';
import { asFields, at, EMPTY_FIELDS, optionalFields, SPEC } from './fields.ts';
import { DEFAULT_NAMESPACE, readMetadata, readTemplateLabels } from './metadata.ts';
import { readPodSpec } from './pod-spec.ts';

const TEMPLATE = at(SPEC, 'template');

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toDaemonSet(object: unknown): DaemonSet {
  const fields = asFields(object, undefined);
  const meta = readMetadata(fields);
  const spec = optionalFields(fields, 'spec', undefined) ?? EMPTY_FIELDS;
  const template = optionalFields(spec, 'template', SPEC) ?? EMPTY_FIELDS;
  const podSpec = optionalFields(template, 'spec', TEMPLATE) ?? EMPTY_FIELDS;
  return {
    namespace: meta.namespace ?? DEFAULT_NAMESPACE,
    name: meta.name,
    template: {
      labels: readTemplateLabels(template, TEMPLATE),
      spec: readPodSpec(podSpec, at(TEMPLATE, 'spec')),
    },
  };
}
