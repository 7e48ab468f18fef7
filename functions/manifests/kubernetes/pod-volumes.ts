/** A pod's volumes, as far as they bind it to storage: claims and generic ephemeral volumes. */
import * as z from 'zod';
import type { PodVolume } from '../../domain/pod.ts';
import { defined, optional, text } from './schema.ts';

/** Only the storage class of the claim template matters for placement. */
const ephemeral = z
  .object({
    volumeClaimTemplate: optional(
      z.object({ spec: optional(z.object({ storageClassName: optional(text) })) }),
    ),
  })
  .transform((source) =>
    defined({ storageClassName: source.volumeClaimTemplate?.spec?.storageClassName }),
  );

export const podVolume = z
  .object({
    name: text,
    persistentVolumeClaim: optional(z.object({ claimName: text })),
    ephemeral: optional(ephemeral),
  })
  .transform((volume): PodVolume => defined(volume));
