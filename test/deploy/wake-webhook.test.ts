/**
 * deploy/wake-webhook.yaml as kube-apiserver would take it: valid against the
 * admissionregistration.k8s.io/v1 schema and its validation once the stack's URL is filled in,
 * never able to block (Ignore, a short timeout, no side effects), and narrowed by match
 * conditions that compile and send exactly the pod and node changes the relay wakes for.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileMatchConditions } from '../../simulator/admission/match-conditions.ts';
import {
  type ValidatingWebhook,
  validatingWebhookConfigurationSchema,
} from '../../simulator/admission/validating-webhook-configuration.ts';

const TEXT = readFileSync(new URL('../../deploy/wake-webhook.yaml', import.meta.url), 'utf8');
const URL_FROM_STACK = 'https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/v1/wake/';
const TOKEN = 'Zq4H0vX9s2LmP7aR1cT8yB3nK6eW5jU0dF2gQ9hV4iO7';

/** The file as `envsubst` fills it in. */
function configuration(url = `${URL_FROM_STACK}${TOKEN}`) {
  return validatingWebhookConfigurationSchema.parse(
    parse(TEXT.replaceAll('${NODESMITH_WAKE_URL}', url)),
  );
}

function webhook(name: string): ValidatingWebhook {
  const found = configuration().webhooks.find((w) => w.name === name);
  if (found === undefined) throw new Error(`no webhook ${name}`);
  return found;
}

const UNSCHEDULABLE = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' };
const pod = (spec: object, status: object = { phase: 'Pending' }) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'shop' },
  spec: { containers: [{ name: 'web', image: 'nginx' }], ...spec },
  status,
});

describe('deploy/wake-webhook.yaml', () => {
  it('leaves the URL to be filled in from the stack, and nothing else', () => {
    // Assess
    expect(TEXT.match(/\$\{[A-Z_]+\}/g)).toEqual(new Array(3).fill('${NODESMITH_WAKE_URL}'));
    expect(() => configuration('http://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/')).toThrow(
      "'https' is the only allowed URL scheme",
    );
  });

  it('is a valid ValidatingWebhookConfiguration that can never block or change a request', () => {
    // Act
    const { webhooks } = configuration();

    // Assess
    expect(webhooks.map((w) => w.name)).toEqual([
      'pod-created.wake.nodesmith.io',
      'pod-unschedulable.wake.nodesmith.io',
      'node-deleted.wake.nodesmith.io',
    ]);
    for (const w of webhooks) {
      expect(w, w.name).toMatchObject({
        clientConfig: { url: `${URL_FROM_STACK}${TOKEN}` },
        failurePolicy: 'Ignore',
        sideEffects: 'None',
        timeoutSeconds: 2,
        admissionReviewVersions: ['v1'],
      });
    }
  });

  it('sends pod creations, pods/status updates and node deletions, nothing more', () => {
    // Act
    const rules = configuration().webhooks.flatMap((w) =>
      w.rules.map(
        (r) =>
          `${r.operations.join()} ${r.apiGroups.join()}/${r.apiVersions.join()} ${r.resources.join()} ${r.scope}`,
      ),
    );

    // Assess
    expect(rules).toEqual([
      'CREATE /v1 pods Namespaced',
      'UPDATE /v1 pods/status Namespaced',
      'DELETE /v1 nodes Cluster',
    ]);
  });

  it.each([
    [
      'pod-created.wake.nodesmith.io',
      'a pod created without a node',
      { object: pod({}), oldObject: null },
      'match',
    ],
    [
      'pod-created.wake.nodesmith.io',
      'a pod created on a node',
      { object: pod({ nodeName: 'ip-10-0-1-17' }), oldObject: null },
      'skip',
    ],
    [
      'pod-unschedulable.wake.nodesmith.io',
      'a pod just marked Unschedulable',
      { object: pod({}, { phase: 'Pending', conditions: [UNSCHEDULABLE] }), oldObject: pod({}) },
      'match',
    ],
    [
      'pod-unschedulable.wake.nodesmith.io',
      'a pod marked Unschedulable again',
      {
        object: pod({}, { phase: 'Pending', conditions: [{ ...UNSCHEDULABLE, message: 'again' }] }),
        oldObject: pod({}, { phase: 'Pending', conditions: [UNSCHEDULABLE] }),
      },
      'skip',
    ],
    [
      'pod-unschedulable.wake.nodesmith.io',
      'a pod reported running',
      {
        object: pod(
          { nodeName: 'n' },
          { phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True' }] },
        ),
        oldObject: pod({ nodeName: 'n' }, { phase: 'Pending' }),
      },
      'skip',
    ],
    [
      'pod-unschedulable.wake.nodesmith.io',
      'a status update of a pod that had no status',
      { object: pod({}, { conditions: [UNSCHEDULABLE] }), oldObject: { spec: {} } },
      'match',
    ],
  ])('%s: %s → %s', (name, _, variables, outcome) => {
    // Prepare
    const conditions = compileMatchConditions(webhook(name).matchConditions);

    // Act
    const result = conditions.evaluate({ ...variables, request: { operation: 'CREATE' } });

    // Assess
    expect(result).toEqual(outcome);
  });

  it('refuses what kube-apiserver refuses', () => {
    // Prepare
    const document = parse(TEXT.replaceAll('${NODESMITH_WAKE_URL}', `${URL_FROM_STACK}${TOKEN}`));
    const first = document.webhooks[0];

    // Act
    const refusals = [
      { ...first, sideEffects: 'Unknown' },
      { ...first, timeoutSeconds: 31 },
      { ...first, name: 'wake.nodesmith' },
      { ...first, clientConfig: { url: `${URL_FROM_STACK}${TOKEN}?x=1` } },
      { ...first, matchConditions: [{ name: 'a b', expression: 'true' }] },
      { ...first, reinvocationPolicy: 'Never' },
    ].map(
      (w) => validatingWebhookConfigurationSchema.safeParse({ ...document, webhooks: [w] }).success,
    );

    // Assess
    expect(refusals).toEqual([false, false, false, false, false, false]);
    expect(() =>
      compileMatchConditions([{ name: 'count', expression: 'size(object.spec)' }]),
    ).toThrow('matchConditions count: must evaluate to bool, not int');
    expect(() =>
      compileMatchConditions([{ name: 'typo', expression: 'objects.spec == 1' }]),
    ).toThrow('matchConditions typo: Unknown variable: objects');
  });
});
