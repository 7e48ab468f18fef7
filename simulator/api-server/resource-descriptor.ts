/**
 * What the server knows about one resource type: where it lives in the URL space, how it is
 * named in messages, which fields a field selector may use, how strategic merge patches its lists,
 * and its strategy (the per-resource behaviour kube-apiserver keeps in `pkg/registry/<group>`).
 */

import type { FieldError } from './field-errors.ts';
import type { JsonObject } from './json.ts';
import { nameOf, namespaceOf } from './object-meta.ts';
import type { ListStrategies } from './patch/strategic-merge-patch.ts';
import type { ResourceName } from './resource-names.ts';
import type { GroupKind, GroupResource } from './status-errors.ts';

export interface StrategyContext {
  readonly now: Date;
}

export interface ResourceStrategy {
  /**
   * The v1 defaulting the codec applies to every object decoded from a request (create, update,
   * patch result), so an update that omits a defaulted field does not count as changing it.
   */
  defaults?(object: JsonObject): void;
  /** Admission and resets applied to a create that came over the API (not to seeded objects). */
  prepareForCreate?(object: JsonObject, context: StrategyContext): void;
  /** Resets applied to an update of the main resource (status is already carried over). */
  prepareForUpdate?(next: JsonObject, previous: JsonObject): void;
  /** Checked on create and on every update. */
  validate?(object: JsonObject): FieldError[];
  /** Checked on updates only, in addition to `validate`. */
  validateUpdate?(next: JsonObject, previous: JsonObject): FieldError[];
  /**
   * Seconds a delete waits before the object goes (pods: the kubelet's grace period). Resources
   * without it are deleted at once unless finalizers hold them.
   */
  gracePeriodSeconds?(object: JsonObject, requested: number | undefined): number;
  /** Whether something besides `metadata.finalizers` keeps a deleted object (namespaces). */
  holdsDeletion?(object: JsonObject): boolean;
  /** Applied when a delete marks the object instead of removing it (namespaces: Terminating). */
  prepareForDeletion?(object: JsonObject): void;
}

export type FieldReader = (object: JsonObject) => string;

export interface ResourceDescriptor {
  /** The plural resource name used in URLs: `pods`, `daemonsets`. */
  readonly resource: ResourceName;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly hasStatus: boolean;
  /** Whether `metadata.generation` is set on create and bumped on spec changes. */
  readonly tracksGeneration: boolean;
  /** Pods answer a delete with the object; every other resource with a Status. */
  readonly returnsDeletedObject: boolean;
  /**
   * Served from a CustomResourceDefinition (Karpenter's): list items keep their kind and
   * apiVersion, as unstructured lists do, and a strategic merge patch is refused with a 415, as
   * for every custom resource (there is no Go struct to read patch strategies from).
   */
  readonly customResource: boolean;
  /** Names must be an RFC 1123 subdomain, or (namespaces) a label. */
  readonly nameFormat: 'subdomain' | 'label';
  /** The etcd key prefix, which shows in precondition-failure messages (nodes live at `minions`). */
  readonly storagePrefix: string;
  readonly fieldSelectors: Readonly<Record<string, FieldReader>>;
  readonly listStrategies: ListStrategies;
  readonly strategy: ResourceStrategy;
}

export function apiVersionOf(descriptor: ResourceDescriptor): string {
  return descriptor.group === '' ? descriptor.version : `${descriptor.group}/${descriptor.version}`;
}

export function groupResourceOf(descriptor: ResourceDescriptor): GroupResource {
  return { group: descriptor.group, resource: descriptor.resource };
}

export function groupKindOf(descriptor: ResourceDescriptor): GroupKind {
  return { group: descriptor.group, kind: descriptor.kind };
}

/** `metadata.name` and `metadata.namespace`: what every resource's field selector accepts. */
export const META_FIELD_SELECTORS: Readonly<Record<string, FieldReader>> = {
  'metadata.name': nameOf,
  'metadata.namespace': namespaceOf,
};

/** Lists every object's metadata merges by key under strategic merge patch. */
export const META_LIST_STRATEGIES: ListStrategies = {
  'metadata.finalizers': { mergePrimitives: true },
  'metadata.ownerReferences': { mergeKey: 'uid' },
};

export interface DescriptorInput {
  readonly resource: ResourceName;
  readonly group?: string;
  readonly version?: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly hasStatus?: boolean;
  readonly tracksGeneration?: boolean;
  readonly returnsDeletedObject?: boolean;
  readonly customResource?: boolean;
  readonly nameFormat?: 'subdomain' | 'label';
  readonly storagePrefix?: string;
  readonly fieldSelectors?: Readonly<Record<string, FieldReader>>;
  readonly listStrategies?: ListStrategies;
  readonly strategy?: ResourceStrategy;
}

/** Fills the defaults most resources share, so each resource file states only what is special. */
export function describeResource(input: DescriptorInput): ResourceDescriptor {
  return {
    resource: input.resource,
    group: input.group ?? '',
    version: input.version ?? 'v1',
    kind: input.kind,
    namespaced: input.namespaced,
    hasStatus: input.hasStatus ?? false,
    tracksGeneration: input.tracksGeneration ?? false,
    returnsDeletedObject: input.returnsDeletedObject ?? false,
    customResource: input.customResource ?? false,
    nameFormat: input.nameFormat ?? 'subdomain',
    storagePrefix: input.storagePrefix ?? input.resource,
    fieldSelectors: input.fieldSelectors ?? META_FIELD_SELECTORS,
    listStrategies: { ...META_LIST_STRATEGIES, ...input.listStrategies },
    strategy: input.strategy ?? {},
  };
}
