/** The owner reference marked `controller: true`: the one object that manages another. */
import { asList, asObject, type PlainObject } from './plain-object.ts';

export interface ControllerRef {
  readonly kind: string;
  readonly name: string;
}

export function controllerOf(object: PlainObject): ControllerRef | undefined {
  for (const reference of asList(asObject(object.metadata).ownerReferences)) {
    const { controller, kind, name } = asObject(reference);
    if (controller === true && typeof kind === 'string' && typeof name === 'string') {
      return { kind, name };
    }
  }
  return undefined;
}

/** The reference a controller puts on what it creates. */
export function ownerReference(apiVersion: string, kind: string, name: string): PlainObject {
  return { apiVersion, kind, name, controller: true, blockOwnerDeletion: true };
}
