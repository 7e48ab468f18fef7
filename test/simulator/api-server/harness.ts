/** The fake server plus typed clients for each API group, and a way to read a client's failure. */

import {
  AdmissionregistrationV1Api,
  ApiException,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  NodeV1Api,
  PolicyV1Api,
  StorageV1Api,
} from '@kubernetes/client-node';
import { expect } from 'vitest';
import { kubeConfigFor } from '../../../simulator/api-server/kube-config.ts';
import {
  type FakeApiServer,
  type FakeApiServerOptions,
  startFakeApiServer,
} from '../../../simulator/api-server/server.ts';

export interface Harness {
  readonly server: FakeApiServer;
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly policy: PolicyV1Api;
  readonly storage: StorageV1Api;
  readonly nodeApi: NodeV1Api;
  readonly admission: AdmissionregistrationV1Api;
  /** Karpenter's NodeClaims, served as custom resources. */
  readonly customObjects: CustomObjectsApi;
}

export async function startHarness(options?: FakeApiServerOptions): Promise<Harness> {
  const server = await startFakeApiServer(options);
  const kubeConfig = kubeConfigFor(server.url);
  return {
    server,
    core: kubeConfig.makeApiClient(CoreV1Api),
    apps: kubeConfig.makeApiClient(AppsV1Api),
    policy: kubeConfig.makeApiClient(PolicyV1Api),
    storage: kubeConfig.makeApiClient(StorageV1Api),
    nodeApi: kubeConfig.makeApiClient(NodeV1Api),
    admission: kubeConfig.makeApiClient(AdmissionregistrationV1Api),
    customObjects: kubeConfig.makeApiClient(CustomObjectsApi),
  };
}

export interface Failure {
  readonly code: number;
  /** The Status body the client received as a raw string, parsed. */
  readonly body: Record<string, unknown>;
  readonly headers: Readonly<Record<string, string>>;
}

/** The ApiException a client call rejects with; fails the test if the call succeeds. */
export async function failureOf(call: Promise<unknown>): Promise<Failure> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const raw: unknown = error.body;
    const body =
      typeof raw === 'string'
        ? (JSON.parse(raw) as Record<string, unknown>)
        : (raw as Record<string, unknown>);
    return { code: error.code, body, headers: error.headers };
  }
  throw new Error('expected the call to fail');
}

/** A minimal valid pod manifest. */
export function podManifest(
  name: string,
  labels: Record<string, string> = {},
  extra: Record<string, unknown> = {},
) {
  return {
    metadata: { name, labels },
    spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }], ...extra },
  };
}

interface StatusFields {
  readonly message: string;
  readonly reason?: string;
  readonly details?: object;
}

/** The Status body the API server answers a failure with: its code, message, reason, details. */
export function failureStatus(code: number, fields: StatusFields) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', ...fields, code };
}

/** Asserts that the call failed with this HTTP code and the Status body the server gives it. */
export function expectFailure(failure: Failure, code: number, fields: StatusFields): void {
  expect({ code: failure.code, body: failure.body }).toEqual({
    code,
    body: failureStatus(code, fields),
  });
}
