/**
 * Whether a webhook's `rules` take a request, as kube-apiserver matches them
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules): an operation, group, version
 * and resource of the rule each match (`*` matches any; `pods/*` reaches every subresource of pods,
 * a `*` resource with `/status` the status of every resource, and a `*` on both sides every
 * subresource; a plain resource never reaches one), and the scope fits.
 */

import type { AdmissionAttributes } from './admission-attributes.ts';
import type { ValidatingWebhook } from './validating-webhook-configuration.ts';

type Rule = ValidatingWebhook['rules'][number];

const has = (values: readonly string[], value: string) =>
  values.includes('*') || values.includes(value);

function resourceMatches(patterns: readonly string[], attributes: AdmissionAttributes): boolean {
  const { resource, subResource } = attributes;
  const wanted = subResource === undefined ? resource : `${resource}/${subResource}`;
  return patterns.some((pattern) => {
    if (pattern === '*/*' || pattern === wanted) return true;
    const [main, sub] = pattern.split('/');
    if (subResource === undefined) return sub === undefined && main === '*';
    return (main === '*' && sub === subResource) || (main === resource && sub === '*');
  });
}

function scopeMatches(scope: Rule['scope'], attributes: AdmissionAttributes): boolean {
  if (scope === '*') return true;
  return (scope === 'Namespaced') === (attributes.namespace !== undefined);
}

export function ruleMatches(rule: Rule, attributes: AdmissionAttributes): boolean {
  return (
    has(rule.operations, attributes.operation) &&
    has(rule.apiGroups, attributes.group) &&
    has(rule.apiVersions, attributes.version) &&
    resourceMatches(rule.resources, attributes) &&
    scopeMatches(rule.scope, attributes)
  );
}
