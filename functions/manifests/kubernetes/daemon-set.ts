/** An apps/v1 DaemonSet object as a domain DaemonSet: its pod template. */
import * as z from 'zod';
import type { DaemonSet } from '../../domain/daemon-set.ts';
import { DEFAULT_NAMESPACE, objectMeta, templateMeta } from './metadata.ts';
import { EMPTY_POD_SPEC, podSpec } from './pod-spec.ts';
import { optional, readWith } from './schema.ts';

const daemonSetSchema = z
  .object({
    metadata: objectMeta,
    spec: optional(
      z.object({ template: optional(z.object({ metadata: templateMeta, spec: podSpec })) }),
    ),
  })
  .transform(
    ({ metadata: meta, spec }): DaemonSet => ({
      namespace: meta.namespace ?? DEFAULT_NAMESPACE,
      name: meta.name,
      template: {
        labels: spec?.template?.metadata ?? {},
        spec: spec?.template?.spec ?? EMPTY_POD_SPEC,
      },
    }),
  );

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toDaemonSet(object: unknown): DaemonSet {
  return readWith(daemonSetSchema, object);
}
