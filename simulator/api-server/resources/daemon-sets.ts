/**
 * apps/v1 daemonsets: generation tracking, status reset on create, defaults for the update
 * strategy and the pod template, and the selector/template checks `ValidateDaemonSet` makes.
 */

import { type FieldError, goStringMap, invalid, required } from '../field-errors.ts';
import { arrayAt, childObject, type JsonObject, objectAt, stringMapAt } from '../json.ts';
import { matchesLabels, requirementsOf } from '../label-selector.ts';
import { describeResource } from '../resource-descriptor.ts';
import { defaultPodSpec } from './pod-defaults.ts';
import { podSpecListStrategies } from './pods.ts';

function defaults(daemonSet: JsonObject): void {
  const spec = childObject(daemonSet, 'spec');
  spec.updateStrategy ??= {
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
  };
  spec.revisionHistoryLimit ??= 10;
  defaultPodSpec(childObject(childObject(spec, 'template'), 'spec'));
}

function prepareForCreate(daemonSet: JsonObject): void {
  daemonSet.status = {
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 0,
    numberReady: 0,
  };
}

function validateDaemonSet(daemonSet: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const selector = objectAt(daemonSet, 'spec.selector');
  const labels = stringMapAt(daemonSet, 'spec.template.metadata.labels');
  if (selector === undefined) errors.push(required('spec.selector'));
  else {
    const requirements = requirementsOf(selector);
    if (requirements !== undefined && !matchesLabels(labels, requirements)) {
      errors.push(
        invalid(
          'spec.template.metadata.labels',
          goStringMap(labels),
          '`selector` does not match template `labels`',
        ),
      );
    }
  }
  if (arrayAt(daemonSet, 'spec.template.spec.containers').length === 0) {
    errors.push(required('spec.template.spec.containers'));
  }
  return errors;
}

export const daemonSets = describeResource({
  resource: 'daemonsets',
  group: 'apps',
  kind: 'DaemonSet',
  namespaced: true,
  hasStatus: true,
  tracksGeneration: true,
  listStrategies: {
    ...podSpecListStrategies('spec.template.spec'),
    'status.conditions': { mergeKey: 'type' },
  },
  strategy: { defaults, prepareForCreate, validate: validateDaemonSet },
});
