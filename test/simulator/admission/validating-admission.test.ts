/**
 * The simulated API server's ValidatingAdmissionWebhook, with deploy/wake-webhook.yaml and the
 * real relay in this process: only the calls the rules and match conditions take reach it, each
 * becomes at most a wake, and timeouts, failed calls and denials follow the failure policy as
 * kube-apiserver's do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeAdmissionHandler } from '../../../functions/handlers/audit-relay/admission.ts';
import type { Wake } from '../../../functions/ports/wake.ts';
import type { AdmissionAttributes } from '../../../simulator/admission/admission-attributes.ts';
import { relayTransport } from '../../../simulator/admission/relay-transport.ts';
import {
  ValidatingAdmission,
  type WebhookTransport,
} from '../../../simulator/admission/validating-admission.ts';
import {
  type ValidatingWebhookConfiguration,
  validatingWebhookConfigurationSchema,
} from '../../../simulator/admission/validating-webhook-configuration.ts';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import { MemoryWakeWindowStore } from '../../../simulator/memory/memory-wake-window-store.ts';

const TOKEN = 'Zq4H0vX9s2LmP7aR1cT8yB3nK6eW5jU0dF2gQ9hV4iO7';
const URL_FROM_STACK = 'https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/v1/wake/';

function wakeWebhooks(token = TOKEN): ValidatingWebhookConfiguration {
  const text = readFileSync(new URL('../../../deploy/wake-webhook.yaml', import.meta.url), 'utf8');
  return validatingWebhookConfigurationSchema.parse(
    parse(text.replaceAll('${NODESMITH_WAKE_URL}', `${URL_FROM_STACK}${token}`)),
  );
}

/** The relay in this process, its wakes recorded, behind the wake webhook configuration. */
function clusterWithRelay(token = TOKEN) {
  const wakes: Wake[] = [];
  let ms = 1_795_000_000_000;
  const handler = makeAdmissionHandler({
    tokens: async () => ({ current: TOKEN }),
    state: { wakeWindow: new MemoryWakeWindowStore() },
    waker: { wake: async (wake) => void wakes.push(wake) },
    // Each call a window later, so each wake is sent at once and can be counted.
    now: () => (ms += 2000),
  });
  const admission = new ValidatingAdmission({
    configurations: () => [wakeWebhooks(token)],
    transport: relayTransport(handler),
  });
  return { admission, wakes };
}

const UNSCHEDULABLE = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' };

function pod(spec: JsonObject = {}, status: JsonObject = { phase: 'Pending' }): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'shop', labels: { app: 'web' } },
    spec: { containers: [{ name: 'web', image: 'nginx' }], ...spec },
    status,
  };
}

const NODE = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'ip-10-0-1-17' } };

function request(attributes: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    resource: 'pods',
    kind: 'Pod',
    namespace: 'shop',
    name: 'web-1',
    object: pod(),
    oldObject: null,
    userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller', groups: [] },
    ...attributes,
  };
}

describe('the simulated API server’s validating admission webhooks', () => {
  it.each([
    ['a pod created pending', request({}), '1 pod created'],
    [
      'a pod kube-scheduler just marked Unschedulable',
      request({
        operation: 'UPDATE',
        subResource: 'status',
        object: pod({}, { phase: 'Pending', conditions: [UNSCHEDULABLE] }),
        oldObject: pod(),
      }),
      '1 pod unschedulable',
    ],
    [
      'a node deleted',
      request({
        operation: 'DELETE',
        resource: 'nodes',
        kind: 'Node',
        namespace: undefined,
        name: 'ip-10-0-1-17',
        object: null,
        oldObject: NODE,
      }),
      '1 node deleted',
    ],
  ])(
    'calls the relay for %s, is allowed, and wakes the controller once',
    async (_, attributes, reason) => {
      // Prepare
      const { admission, wakes } = clusterWithRelay();

      // Act
      const verdict = await admission.admit(attributes);

      // Assess
      expect(verdict.allowed).toBe(true);
      expect(verdict.calls.map((c) => c.outcome)).toEqual(['allowed']);
      expect(wakes).toEqual([{ source: 'admission', reason }]);
    },
  );

  it.each([
    ['a pod created on a node', request({ object: pod({ nodeName: 'ip-10-0-1-17' }) })],
    [
      'a pod marked Unschedulable again',
      request({
        operation: 'UPDATE',
        subResource: 'status',
        object: pod({}, { conditions: [{ ...UNSCHEDULABLE, message: 'again' }] }),
        oldObject: pod({}, { conditions: [UNSCHEDULABLE] }),
      }),
    ],
    ['a pod deleted', request({ operation: 'DELETE', object: null, oldObject: pod() })],
    ['a pod bound', request({ subResource: 'binding', object: { kind: 'Binding' } })],
    [
      'a node created',
      request({ resource: 'nodes', kind: 'Node', namespace: undefined, object: NODE }),
    ],
    ['a ConfigMap created', request({ resource: 'configmaps', kind: 'ConfigMap', object: {} })],
  ])('sends nothing for %s', async (_, attributes) => {
    // Prepare
    const { admission, wakes } = clusterWithRelay();

    // Act
    const verdict = await admission.admit(attributes);

    // Assess
    expect(verdict).toEqual({ allowed: true, calls: [] });
    expect(wakes).toEqual([]);
  });

  it('lets the request through when the relay refuses the token, and nothing wakes', async () => {
    // Prepare
    const { admission, wakes } = clusterWithRelay('W'.repeat(48));

    // Act
    const verdict = await admission.admit(request({}));

    // Assess
    expect(verdict).toEqual({
      allowed: true,
      calls: [
        {
          webhook: 'pod-created.wake.nodesmith.io',
          outcome: 'ignored failure',
          detail: 'failed calling webhook: the webhook answered 404',
        },
      ],
    });
    expect(wakes).toEqual([]);
  });

  describe('a webhook of its own', () => {
    function oneWebhook(failurePolicy: 'Ignore' | 'Fail', transport: WebhookTransport) {
      const [created] = wakeWebhooks().webhooks;
      if (created === undefined) throw new Error('no webhook');
      const configuration = {
        ...wakeWebhooks(),
        webhooks: [{ ...created, failurePolicy, timeoutSeconds: 1 }],
      };
      return new ValidatingAdmission({ configurations: () => [configuration], transport });
    }
    const never: WebhookTransport = () => new Promise(() => {});
    const answering =
      (response: (uid: string) => JsonObject): WebhookTransport =>
      async (_, review) => ({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: response(String((review.request as JsonObject).uid)),
      });

    it.each([
      ['Ignore', true],
      ['Fail', false],
    ] as const)(
      'under failurePolicy %s, a call with no answer within timeoutSeconds lets the request through: %s',
      async (policy, allowed) => {
        // Act
        const verdict = await oneWebhook(policy, never).admit(request({}));

        // Assess
        expect(verdict.allowed).toBe(allowed);
        expect(verdict.calls[0]?.detail).toBe('failed calling webhook: no answer within 1s');
      },
    );

    it('refuses, naming the webhook, when it answers allowed for another request', async () => {
      // Act
      const verdict = await oneWebhook(
        'Fail',
        answering(() => ({ uid: 'another', allowed: true })),
      ).admit(request({}));

      // Assess
      expect(verdict.message).toBe(
        'admission webhook "pod-created.wake.nodesmith.io" denied the request: failed calling webhook: the answer is not an AdmissionReview of the request',
      );
    });

    it('refuses with the webhook’s own message when it denies, whatever the failure policy', async () => {
      // Act
      const verdict = await oneWebhook(
        'Ignore',
        answering((uid) => ({ uid, allowed: false, status: { message: 'no pods today' } })),
      ).admit(request({}));

      // Assess
      expect(verdict).toMatchObject({
        allowed: false,
        message:
          'admission webhook "pod-created.wake.nodesmith.io" denied the request: no pods today',
      });
    });
  });
});
