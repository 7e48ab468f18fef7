/**
 * What a reflector lists and watches (reflector.ts), and how it reads each object into the
 * domain: the same way client-node's list methods deserialize their items, then the mapper.
 */
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';
import type { KubernetesApis } from './clients.ts';
import type { Page, PageQuery } from './pages.ts';

export interface ReflectedKind<TObject, TDomain> {
  /** The API's resource name, for messages and RBAC: `nodes`, `pods`. */
  readonly resource: string;
  /** The collection's path, across all namespaces: `/api/v1/pods`. */
  readonly path: string;
  /** client-node's model of one object, as its list methods deserialize items: `V1Pod`. */
  readonly model: string;
  readonly fieldSelector?: string;
  readonly list: (
    apis: KubernetesApis,
    query: PageQuery & { fieldSelector?: string },
  ) => Promise<Page<TObject>>;
  readonly map: (object: TObject) => TDomain;
}

/** An object as a watch sends it (plain JSON), read into the domain. */
export function domainOf<TObject, TDomain>(
  kind: ReflectedKind<TObject, TDomain>,
  object: unknown,
): TDomain {
  return kind.map(ObjectSerializer.deserialize(object, kind.model, '') as TObject);
}
