/**
 * admissionregistration.k8s.io/v1 validatingwebhookconfigurations: cluster-scoped, no status,
 * validated and defaulted as kube-apiserver does (simulator/admission's schema says how), so
 * `kubectl apply -f deploy/wake-webhook.yaml` is taken or refused here as it is there, and the
 * admission chain reads the stored, defaulted configurations.
 */
import {
  type ValidatingWebhookConfiguration,
  validatingWebhookConfigurationSchema,
} from '../../admission/validating-webhook-configuration.ts';
import { type FieldError, invalid } from '../field-errors.ts';
import type { JsonObject } from '../json.ts';
import { describeResource } from '../resource-descriptor.ts';

const GROUP = 'admissionregistration.k8s.io';

/** `webhooks[0].clientConfig.url`, as field paths print. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** The value a field path names, rendered as validation prints it. */
function valueAt(object: JsonObject, path: readonly PropertyKey[]): string {
  let value: unknown = object;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  return JSON.stringify(value ?? null);
}

function parsed(object: JsonObject) {
  return validatingWebhookConfigurationSchema.safeParse({
    ...object,
    apiVersion: `${GROUP}/v1`,
    kind: 'ValidatingWebhookConfiguration',
  });
}

/** Stored objects are replaced, never changed in place: each is read once. */
const read = new WeakMap<JsonObject, ValidatingWebhookConfiguration>();

/** The stored configuration as the admission chain reads it on every write. */
export function storedConfiguration(object: JsonObject): ValidatingWebhookConfiguration {
  const known = read.get(object);
  if (known !== undefined) return known;
  const result = parsed(object);
  if (!result.success) throw new Error(`a stored configuration does not hold: ${result.error}`);
  read.set(object, result.data);
  return result.data;
}

export const validatingWebhookConfigurations = describeResource({
  resource: 'validatingwebhookconfigurations',
  group: GROUP,
  kind: 'ValidatingWebhookConfiguration',
  namespaced: false,
  strategy: {
    defaults(object) {
      const result = parsed(object);
      if (result.success) object.webhooks = result.data.webhooks as unknown as JsonObject[];
    },
    validate(object): FieldError[] {
      const result = parsed(object);
      if (result.success) return [];
      return result.error.issues.map((issue) =>
        invalid(fieldPath(issue.path), valueAt(object, issue.path), issue.message),
      );
    },
  },
});
