/** A core/v1 Namespace, read for its labels: pod affinity terms select namespaces by label. */
import type { Labels } from './label-selector.ts';

export interface Namespace {
  readonly name: string;
  readonly labels: Labels;
}
