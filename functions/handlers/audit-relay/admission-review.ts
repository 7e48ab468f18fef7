/**
 * What kube-apiserver POSTs to an admission webhook: an `admission.k8s.io/v1` AdmissionReview
 * holding one AdmissionRequest, and the review it expects back, which echoes the request's `uid`
 * (Kubernetes API reference, "AdmissionReview v1"; k8s.io/api/admission/v1/types.go). Only the
 * fields the relay reads are checked; the rest of the request passes.
 */
import * as z from 'zod';
import type { AdmissionRequest } from '../../domain/admission/admission-request.ts';

const OPERATIONS = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;

const admissionRequestSchema = z.looseObject({
  uid: z.string().min(1),
  operation: z.enum(OPERATIONS),
  resource: z.looseObject({ group: z.string(), version: z.string(), resource: z.string() }),
  subResource: z.string().optional(),
  object: z.unknown().optional(),
  oldObject: z.unknown().optional(),
});

export const admissionReviewSchema = z.looseObject({
  apiVersion: z.literal('admission.k8s.io/v1'),
  kind: z.literal('AdmissionReview'),
  request: admissionRequestSchema,
});

export type AdmissionReview = z.output<typeof admissionReviewSchema>;

export function toAdmissionRequest(review: AdmissionReview): AdmissionRequest {
  const { uid, operation, resource, subResource, object, oldObject } = review.request;
  return {
    uid,
    operation,
    resource: resource.resource,
    // The API server sends an empty string, or leaves it out, for the object itself.
    ...(subResource ? { subResource } : {}),
    object,
    oldObject,
  };
}

/** The only answer the relay gives: allowed, with no patch and no warnings. */
export function allowed(uid: string) {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: { uid, allowed: true },
  } as const;
}
