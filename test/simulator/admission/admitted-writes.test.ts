/**
 * The simulated cluster's writes through validating admission: each store write that a request
 * kube-apiserver admits would have made reaches the webhooks of deploy/wake-webhook.yaml with that
 * request's attributes, so only pending pod creations, newly unschedulable pods and node
 * deletions are called; a refusal under `failurePolicy: Fail` is counted.
 */
import { describe, expect, it } from 'vitest';
import { AdmittedWrites } from '../../../simulator/admission/admitted-writes.ts';
import { appliedWakeWebhook } from '../../../simulator/admission/applied-wake-webhook.ts';
import {
  ValidatingAdmission,
  type WebhookTransport,
} from '../../../simulator/admission/validating-admission.ts';
import { describe as describeResource } from '../../../simulator/api-server/catalog.ts';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import { ObjectStore } from '../../../simulator/api-server/storage.ts';

const WAKE_URL = 'https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/v1/wake/token';
const UNSCHEDULABLE = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' };

/** Answers every review allowed (or denied), recording the operation and resource called. */
function recordingTransport(allowed = true) {
  const called: string[] = [];
  const transport: WebhookTransport = async (_url, review) => {
    const request = review.request as JsonObject;
    const resource = (request.resource as JsonObject).resource;
    const sub = request.subResource === undefined ? '' : `/${String(request.subResource)}`;
    called.push(`${String(request.operation)} ${String(resource)}${sub}`);
    const response = { uid: request.uid, allowed };
    return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
  };
  return { called, transport };
}

function admittedStore(transport: WebhookTransport, failurePolicy?: 'Fail') {
  const store = new ObjectStore(describeResource, () => new Date(0));
  const configuration = appliedWakeWebhook(WAKE_URL);
  const webhooks = configuration.webhooks.map((w) => ({
    ...w,
    failurePolicy: failurePolicy ?? w.failurePolicy,
  }));
  const admission = new ValidatingAdmission({
    configurations: () => [{ ...configuration, webhooks }],
    transport,
  });
  return { store, admitted: new AdmittedWrites(store, admission) };
}

function pod(name: string, spec: JsonObject = {}, status: JsonObject = { phase: 'Pending' }) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop' },
    spec: { containers: [{ name: 'web', image: 'nginx' }], ...spec },
    status,
  };
}

describe('the simulated cluster’s writes through validating admission', () => {
  it('calls the wake for a pending pod, its Unschedulable mark and a node deletion only', async () => {
    // Prepare
    const { called, transport } = recordingTransport();
    const { store, admitted } = admittedStore(transport);

    // Act
    store.create('pods', pod('web-1'));
    store.create('pods', pod('bound-1', { nodeName: 'ip-10-0-1-17' }, { phase: 'Running' }));
    const marked = store.get('pods', 'web-1', 'shop') as JsonObject;
    store.update('pods', { ...marked, status: { phase: 'Pending', conditions: [UNSCHEDULABLE] } });
    const again = store.get('pods', 'web-1', 'shop') as JsonObject;
    store.update('pods', {
      ...again,
      metadata: { ...(again.metadata as JsonObject), labels: { a: 'b' } },
    });
    store.create('nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'ip-10-0-1-17' } });
    store.delete('nodes', 'ip-10-0-1-17');
    await admitted.settle();

    // Assess
    expect(called).toEqual(['CREATE pods', 'UPDATE pods/status', 'DELETE nodes']);
    expect(admitted.refused).toBe(0);
    admitted.close();
  });

  it('counts a write the webhook refuses under failurePolicy Fail', async () => {
    // Prepare
    const { transport } = recordingTransport(false);
    const { store, admitted } = admittedStore(transport, 'Fail');

    // Act
    store.create('pods', pod('web-1'));
    await admitted.settle();

    // Assess
    expect(admitted.refused).toBe(1);
    admitted.close();
  });
});
