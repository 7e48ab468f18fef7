/** What a workload's controller creates: pods, and for StatefulSets their claims. */
import type { FieldPath } from '../field-path.ts';
import type { PlainObject } from './plain-object.ts';

export interface WorkloadObjects {
  readonly pods: readonly PlainObject[];
  readonly persistentVolumeClaims: readonly PlainObject[];
  /** Where the pod template lies in the workload, to place errors in its fields. */
  readonly templatePath: FieldPath;
}

export const TEMPLATE_PATH: FieldPath = ['spec', 'template'];
export const NOTHING: WorkloadObjects = {
  pods: [],
  persistentVolumeClaims: [],
  templatePath: TEMPLATE_PATH,
};
