/** A node.k8s.io/v1 RuntimeClass: the pod overhead it adds and the nodes it schedules onto. */
import * as z from 'zod';
import type { RuntimeClass } from '../../domain/volumes.ts';
import { objectMeta } from './metadata.ts';
import { quantities } from './resource-list.ts';
import { defined, listOf, optional, readWith, stringMap } from './schema.ts';
import { toleration } from './taints.ts';

const runtimeClassSchema = z
  .object({
    metadata: objectMeta,
    // The domain keeps the quantities as written; they are still checked here, where the line is known.
    overhead: optional(z.object({ podFixed: quantities })),
    scheduling: optional(
      z.object({ nodeSelector: optional(stringMap), tolerations: listOf(toleration) }),
    ),
  })
  .transform(
    ({ metadata: meta, overhead, scheduling }): RuntimeClass =>
      defined({
        name: meta.name,
        overhead: overhead && defined(overhead),
        scheduling: scheduling && defined(scheduling),
      }),
  );

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toRuntimeClass(object: unknown): RuntimeClass {
  return readWith(runtimeClassSchema, object);
}
