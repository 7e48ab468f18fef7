/**
 * `admissionregistration.k8s.io/v1` ValidatingWebhookConfiguration as kube-apiserver validates
 * it (k8s.io/api/admissionregistration/v1/types.go; pkg/apis/admissionregistration/validation,
 * Kubernetes 1.30, where matchConditions are GA): unknown fields refused, the defaults the API
 * server fills in, and the rules v1 adds — `sideEffects` None or NoneOnDryRun, a timeout of 1 to
 * 30 seconds, an https URL without user, query or fragment, at most 64 match conditions with
 * unique qualified names, and webhook names of at least three segments, unique in the object.
 */
import * as z from 'zod';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

const webhookName = z
  .string()
  .max(253)
  .regex(DNS_SUBDOMAIN, 'must be a DNS subdomain')
  .refine(
    (name) => name.split('.').length >= 3,
    'should be a domain with at least three segments separated by dots',
  );

/** `ValidateWebhookURL(…, forceHttps=true)`. */
const webhookUrl = z.string().superRefine((text, ctx) => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a valid URL' });
    return;
  }
  const problems = [
    url.protocol === 'https:' ? undefined : "'https' is the only allowed URL scheme",
    url.username === '' && url.password === ''
      ? undefined
      : 'user information is not permitted in the URL',
    url.hash === '' && !text.includes('#') ? undefined : 'fragments are not permitted in the URL',
    url.search === '' && !text.includes('?')
      ? undefined
      : 'query parameters are not permitted in the URL',
  ];
  for (const message of problems)
    if (message !== undefined) ctx.addIssue({ code: 'custom', message });
});

const clientConfig = z
  .strictObject({
    url: webhookUrl.optional(),
    service: z
      .strictObject({
        namespace: z.string().min(1),
        name: z.string().min(1),
        path: z.string().optional(),
        port: z.number().int().min(1).max(65535).default(443),
      })
      .optional(),
    caBundle: z.base64().optional(),
  })
  .refine(
    (c) => (c.url === undefined) !== (c.service === undefined),
    'exactly one of url or service is required',
  );

const OPERATIONS = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;

const rule = z.strictObject({
  operations: z.array(z.enum(OPERATIONS)).min(1),
  apiGroups: z.array(z.string()).min(1),
  apiVersions: z.array(z.string().min(1)).min(1),
  resources: z
    .array(
      z
        .string()
        .regex(/^([a-z0-9*]+)(\/[a-z0-9*]+)?$/, 'must be a resource or resource/subresource'),
    )
    .min(1),
  scope: z.enum(['Cluster', 'Namespaced', '*']).default('*'),
});

const matchCondition = z.strictObject({
  name: z.string().regex(QUALIFIED_NAME, 'must be a qualified name, as label keys are'),
  expression: z.string().min(1),
});

const labelSelector = z.strictObject({
  matchLabels: z.record(z.string(), z.string()).optional(),
  matchExpressions: z
    .array(
      z.strictObject({
        key: z.string(),
        operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
        values: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

const uniqueNames = (items: readonly { name: string }[]) =>
  new Set(items.map((i) => i.name)).size === items.length;

export const validatingWebhookSchema = z.strictObject({
  name: webhookName,
  clientConfig,
  rules: z.array(rule).default([]),
  failurePolicy: z.enum(['Ignore', 'Fail']).default('Fail'),
  matchPolicy: z.enum(['Exact', 'Equivalent']).default('Equivalent'),
  namespaceSelector: labelSelector.default({}),
  objectSelector: labelSelector.default({}),
  sideEffects: z.enum(['None', 'NoneOnDryRun'], {
    error: 'must be None or NoneOnDryRun in admissionregistration.k8s.io/v1',
  }),
  timeoutSeconds: z.number().int().min(1).max(30).default(10),
  admissionReviewVersions: z
    .array(z.string())
    .min(1)
    .refine(
      (versions) => versions.some((v) => v === 'v1' || v === 'v1beta1'),
      'must include at least one of v1, v1beta1',
    ),
  matchConditions: z
    .array(matchCondition)
    .max(64)
    .refine(uniqueNames, 'match condition names must be unique')
    .default([]),
});

export const validatingWebhookConfigurationSchema = z.strictObject({
  apiVersion: z.literal('admissionregistration.k8s.io/v1'),
  kind: z.literal('ValidatingWebhookConfiguration'),
  metadata: z.looseObject({ name: z.string().regex(DNS_SUBDOMAIN) }),
  webhooks: z
    .array(validatingWebhookSchema)
    .refine(uniqueNames, 'webhook names must be unique')
    .default([]),
});

export type ValidatingWebhook = z.output<typeof validatingWebhookSchema>;
export type ValidatingWebhookConfiguration = z.output<typeof validatingWebhookConfigurationSchema>;
