/**
 * ObjectMeta as `kubectl get -o yaml` prints it. The fields Nodesmith reads are typed; the rest
 * (and anything a newer apiserver adds) is carried unchanged, since metadata is the apiserver's
 * to define, not Karpenter's.
 */
import * as z from 'zod';
import { dnsSubdomain, nonNegativeInt, stringMap, timestamp } from './fields.ts';

const ownerReference = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});

export const objectMeta = z.looseObject({
  name: dnsSubdomain,
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: nonNegativeInt.optional(),
  creationTimestamp: timestamp.optional(),
  deletionTimestamp: timestamp.optional(),
  deletionGracePeriodSeconds: z.int().optional(),
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
  finalizers: z.array(z.string()).optional(),
  ownerReferences: z.array(ownerReference).optional(),
  managedFields: z.array(z.looseObject({})).optional(),
  selfLink: z.string().optional(),
});
