/**
 * policy/v1 poddisruptionbudgets: generation tracking, status reset on create (the disruption
 * controller fills it in), and the spec checks `ValidatePodDisruptionBudgetSpec` makes.
 */

import { type FieldError, invalid } from '../field-errors.ts';
import { type JsonObject, type JsonValue, objectAt } from '../json.ts';
import { describeResource } from '../resource-descriptor.ts';

function validateIntOrPercent(value: JsonValue | undefined, field: string): FieldError[] {
  if (typeof value === 'number') {
    return value < 0 ? [invalid(field, String(value), 'must be greater than or equal to 0')] : [];
  }
  if (typeof value !== 'string') return [];
  const match = /^(\d+)%$/.exec(value);
  if (match === null)
    return [
      invalid(
        field,
        JSON.stringify(value),
        "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ),
    ];
  return Number(match[1]) > 100
    ? [invalid(field, JSON.stringify(value), 'must not be greater than 100%')]
    : [];
}

function validateBudget(budget: JsonObject): FieldError[] {
  const spec = objectAt(budget, 'spec') ?? {};
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    return [
      invalid('spec', JSON.stringify(spec), 'minAvailable and maxUnavailable cannot be both set'),
    ];
  }
  return [
    ...validateIntOrPercent(spec.minAvailable, 'spec.minAvailable'),
    ...validateIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'),
  ];
}

export const podDisruptionBudgets = describeResource({
  resource: 'poddisruptionbudgets',
  group: 'policy',
  kind: 'PodDisruptionBudget',
  namespaced: true,
  hasStatus: true,
  tracksGeneration: true,
  listStrategies: { 'status.conditions': { mergeKey: 'type' } },
  strategy: {
    prepareForCreate(budget) {
      budget.status = {
        disruptionsAllowed: 0,
        currentHealthy: 0,
        desiredHealthy: 0,
        expectedPods: 0,
      };
    },
    validate: validateBudget,
  },
});
