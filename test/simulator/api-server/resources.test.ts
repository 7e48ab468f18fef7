import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appliedWakeWebhook } from '../../../simulator/admission/applied-wake-webhook.ts';
import { failureOf, type Harness, podManifest, startHarness } from './harness.ts';

let h: Harness;

beforeEach(async () => {
  h = await startHarness();
  await h.core.createNamespace({ body: { metadata: { name: 'team-a' } } });
});

afterEach(async () => {
  await h.server.close();
});

function daemonSet(name: string, labels: Record<string, string>) {
  return {
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels }, spec: podManifest('').spec },
    },
  };
}

describe('namespaces', () => {
  it('start with the built-in ones and label each with its name', async () => {
    // Act
    const created = await h.core.createNamespace({ body: { metadata: { name: 'team-b' } } });
    const list = await h.core.listNamespace();
    // Assess
    expect(list.items.map((n) => n.metadata?.name)).toEqual([
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
      'team-a',
      'team-b',
    ]);
    expect(created.metadata?.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-b' });
    expect(created.status?.phase).toBe('Active');
    expect(created.spec?.finalizers).toEqual(['kubernetes']);
  });
});

describe('nodes', () => {
  it('refuse two taints with the same key and effect', async () => {
    // Act
    const failure = await failureOf(
      h.core.createNode({
        body: {
          metadata: { name: 'n1' },
          spec: {
            taints: [
              { key: 'gpu', value: 'a', effect: 'NoSchedule' },
              { key: 'gpu', value: 'b', effect: 'NoSchedule' },
            ],
          },
        },
      }),
    );
    // Assess
    expect(failure.body.message).toBe(
      'Node "n1" is invalid: spec.taints[1]: Duplicate value: core.Taint{Key:"gpu", Value:"b", Effect:"NoSchedule", TimeAdded:<nil>}: taints must be unique by key and effect pair',
    );
  });

  it('keep a providerID once it is set', async () => {
    // Prepare
    await h.core.createNode({ body: { metadata: { name: 'n1' }, spec: {} } });
    await h.core.patchNode({
      name: 'n1',
      body: [{ op: 'add', path: '/spec/providerID', value: 'aws:///us-east-1a/i-1' }],
    });
    // Act
    const failure = await failureOf(
      h.core.patchNode({
        name: 'n1',
        body: [{ op: 'replace', path: '/spec/providerID', value: 'aws:///us-east-1a/i-2' }],
      }),
    );
    // Assess
    expect(failure.body.message).toBe(
      'Node "n1" is invalid: spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    );
  });
});

describe('apps/v1 daemonsets', () => {
  it('are created with generation 1 and a reset status, and listed across namespaces', async () => {
    // Act
    const created = await h.apps.createNamespacedDaemonSet({
      namespace: 'team-a',
      body: { ...daemonSet('agent', { app: 'agent' }), status: { numberReady: 9 } as never },
    });
    await h.apps.createNamespacedDaemonSet({
      namespace: 'default',
      body: daemonSet('logs', { app: 'logs' }),
    });
    const all = await h.apps.listDaemonSetForAllNamespaces();
    // Assess
    expect(created.metadata?.generation).toBe(1);
    expect(created.status).toEqual({
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    });
    expect(created.spec?.updateStrategy?.type).toBe('RollingUpdate');
    expect(all.items.map((d) => `${d.metadata?.namespace}/${d.metadata?.name}`)).toEqual([
      'default/logs',
      'team-a/agent',
    ]);
    expect(all.kind).toBe('DaemonSetList');
  });

  it('bump generation when the template changes', async () => {
    // Prepare
    await h.apps.createNamespacedDaemonSet({
      namespace: 'default',
      body: daemonSet('agent', { app: 'agent' }),
    });
    // Act
    const patched = await h.apps.patchNamespacedDaemonSet({
      namespace: 'default',
      name: 'agent',
      body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'app:2' }],
    });
    // Assess
    expect(patched.metadata?.generation).toBe(2);
  });

  it('refuse a template whose labels the selector does not match', async () => {
    // Act
    const failure = await failureOf(
      h.apps.createNamespacedDaemonSet({
        namespace: 'default',
        body: daemonSet('agent', { app: 'other' }),
      }),
    );
    // Assess
    expect(failure.code).toBe(422);
    expect(failure.body.message).toBe(
      'DaemonSet.apps "agent" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
    );
    expect(failure.body.details).toMatchObject({ name: 'agent', group: 'apps', kind: 'DaemonSet' });
  });
});

describe('policy/v1 poddisruptionbudgets', () => {
  it('are listed with the status the disruption controller computed', async () => {
    // Prepare
    h.server.store.create('pods', {
      metadata: { name: 'p1', namespace: 'team-a', labels: { app: 'web' } },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    await h.policy.createNamespacedPodDisruptionBudget({
      namespace: 'team-a',
      body: {
        metadata: { name: 'web' },
        spec: { maxUnavailable: '100%', selector: { matchLabels: { app: 'web' } } },
      },
    });
    // Act
    const list = await h.policy.listPodDisruptionBudgetForAllNamespaces();
    // Assess
    expect(list.items).toHaveLength(1);
    expect(list.items[0]?.status).toMatchObject({
      expectedPods: 1,
      currentHealthy: 1,
      desiredHealthy: 0,
      disruptionsAllowed: 1,
    });
  });

  it('refuse both minAvailable and maxUnavailable', async () => {
    // Act
    const failure = await failureOf(
      h.policy.createNamespacedPodDisruptionBudget({
        namespace: 'default',
        body: {
          metadata: { name: 'web' },
          spec: { minAvailable: 1, maxUnavailable: 1, selector: {} },
        },
      }),
    );
    // Assess
    expect(failure.code).toBe(422);
    expect(String(failure.body.message)).toMatch(
      /^PodDisruptionBudget\.policy "web" is invalid: spec: Invalid value: .*: minAvailable and maxUnavailable cannot be both set$/,
    );
  });
});

describe('persistent volumes and claims', () => {
  it('are created Pending with their defaults and listed', async () => {
    // Act
    const volume = await h.core.createPersistentVolume({
      body: {
        metadata: { name: 'pv-1' },
        spec: {
          capacity: { storage: '10Gi' },
          accessModes: ['ReadWriteOnce'],
          csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' },
        },
      },
    });
    const claim = await h.core.createNamespacedPersistentVolumeClaim({
      namespace: 'team-a',
      body: {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
      },
    });
    const volumes = await h.core.listPersistentVolume();
    const claims = await h.core.listPersistentVolumeClaimForAllNamespaces();
    // Assess
    expect(volume.status?.phase).toBe('Pending');
    expect(volume.spec?.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(claim.status?.phase).toBe('Pending');
    expect(claim.spec?.volumeMode).toBe('Filesystem');
    expect(volumes.items.map((v) => v.metadata?.name)).toEqual(['pv-1']);
    expect(claims.items.map((c) => c.metadata?.name)).toEqual(['data']);
  });

  it('refuse a claim without a storage request', async () => {
    // Act
    const failure = await failureOf(
      h.core.createNamespacedPersistentVolumeClaim({
        namespace: 'default',
        body: { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } },
      }),
    );
    // Assess
    expect(failure.body.message).toBe(
      'PersistentVolumeClaim "data" is invalid: spec.resources[storage]: Required value',
    );
  });
});

describe('storage.k8s.io and node.k8s.io', () => {
  it('serve storage classes with defaults and immutable parameters', async () => {
    // Prepare
    const created = await h.storage.createStorageClass({
      body: {
        metadata: { name: 'gp3' },
        provisioner: 'ebs.csi.aws.com',
        parameters: { type: 'gp3' },
      },
    });
    // Act
    const list = await h.storage.listStorageClass();
    const failure = await failureOf(
      h.storage.replaceStorageClass({
        name: 'gp3',
        body: { ...created, parameters: { type: 'io2' } },
      }),
    );
    // Assess
    expect(list.items.map((s) => [s.metadata?.name, s.reclaimPolicy, s.volumeBindingMode])).toEqual(
      [['gp3', 'Delete', 'Immediate']],
    );
    expect(failure.body.message).toBe(
      'StorageClass.storage.k8s.io "gp3" is invalid: parameters: Forbidden: updates to parameters are forbidden.',
    );
  });

  it('serve CSI nodes and runtime classes', async () => {
    // Prepare
    await h.storage.createCSINode({
      body: {
        metadata: { name: 'n1' },
        spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'i-1', allocatable: { count: 25 } }] },
      },
    });
    await h.nodeApi.createRuntimeClass({
      body: { metadata: { name: 'gvisor' }, handler: 'runsc' },
    });
    // Act
    const csiNodes = await h.storage.listCSINode();
    const runtimeClasses = await h.nodeApi.listRuntimeClass();
    const missing = await failureOf(h.nodeApi.readRuntimeClass({ name: 'kata' }));
    // Assess
    expect(csiNodes.items[0]?.spec.drivers[0]?.allocatable?.count).toBe(25);
    expect(runtimeClasses.items.map((r) => r.handler)).toEqual(['runsc']);
    expect(missing.body).toMatchObject({ message: 'runtimeclasses.node.k8s.io "kata" not found' });
  });
});

describe('validatingwebhookconfigurations', () => {
  it('take deploy/wake-webhook.yaml as applied, with the defaults kube-apiserver fills in', async () => {
    // Prepare
    const applied = appliedWakeWebhook(
      'https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/v1/wake/t0k3n',
    );
    // Act
    await h.admission.createValidatingWebhookConfiguration({ body: applied as never });
    const list = await h.admission.listValidatingWebhookConfiguration();
    // Assess
    const [stored] = list.items;
    expect(stored?.metadata?.name).toBe(applied.metadata.name);
    expect(stored?.webhooks?.map((w) => w.clientConfig.url)).toEqual(
      applied.webhooks.map(
        () => 'https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/v1/wake/t0k3n',
      ),
    );
    expect(stored?.webhooks?.every((w) => w.matchPolicy === 'Equivalent')).toBe(true);
    expect(stored?.webhooks?.every((w) => w.failurePolicy === 'Ignore')).toBe(true);
  });

  it('refuse a webhook reached over plain http, naming the field', async () => {
    // Prepare
    const applied = appliedWakeWebhook('https://example.com/v1/wake/t0k3n');
    const [first, ...rest] = applied.webhooks;
    const webhooks = [
      { ...first, clientConfig: { url: 'http://example.com/v1/wake/t0k3n' } },
      ...rest,
    ];
    // Act
    const failure = await failureOf(
      h.admission.createValidatingWebhookConfiguration({ body: { ...applied, webhooks } as never }),
    );
    // Assess
    expect(failure.code).toBe(422);
    expect(failure.body.message).toContain('webhooks[0].clientConfig.url');
    expect(failure.body.message).toContain("'https' is the only allowed URL scheme");
    expect(await h.admission.listValidatingWebhookConfiguration()).toMatchObject({ items: [] });
  });
});

describe('events', () => {
  it('are selectable by the object they are about', async () => {
    // Prepare
    for (const [name, pod] of [
      ['e1', 'p1'],
      ['e2', 'p2'],
    ]) {
      await h.core.createNamespacedEvent({
        namespace: 'default',
        body: {
          metadata: { name },
          involvedObject: { kind: 'Pod', name: pod, namespace: 'default' },
          reason: 'Nominated',
          type: 'Normal',
        },
      });
    }
    // Act
    const list = await h.core.listNamespacedEvent({
      namespace: 'default',
      fieldSelector: 'involvedObject.name=p2,type=Normal',
    });
    // Assess
    expect(list.items.map((e) => e.metadata.name)).toEqual(['e2']);
  });
});
