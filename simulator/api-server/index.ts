/**
 * A simulated Kubernetes API server: kube-apiserver's REST behaviour for the resources the
 * autoscaler touches, over real HTTP. `nodesmith simulate` runs the real Kubernetes adapter
 * against it, and the adapter's tests reach it through `@kubernetes/client-node` exactly as it
 * runs against EKS.
 *
 * @example
 * const server = await startFakeApiServer();
 * const core = kubeConfigFor(server.url).makeApiClient(CoreV1Api);
 * server.store.create('nodes', { metadata: { name: 'n1' } });
 * await core.patchNode({ name: 'n1', body: [...] });
 * expect(server.requests.matching('PATCH', '/api/v1/nodes/n1')).toHaveLength(1);
 * await server.close();
 */

export type { FaultInjector, FaultSpec, InjectedFault } from './faults.ts';
export type { JsonObject, JsonValue } from './json.ts';
export { kubeConfigFor } from './kube-config.ts';
export { PatchType } from './patch/apply-patch.ts';
export type { RecordedRequest, RequestLog } from './request-log.ts';
export type { ResourceName } from './resource-names.ts';
export { type FakeApiServer, type FakeApiServerOptions, startFakeApiServer } from './server.ts';
export type { ChangeType, ObjectStore, StoreChange, StoreListener } from './storage.ts';
