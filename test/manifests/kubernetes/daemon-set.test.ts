import { describe, expect, it } from 'vitest';
import { toDaemonSet } from '../../../functions/manifests/kubernetes/daemon-set.ts';
import { manifestErrorOf, objectOf } from '../manifest-fixtures.ts';

describe('toDaemonSet', () => {
  it('maps a DaemonSet to its template labels and pod spec', () => {
    // Prepare
    const object = objectOf(`apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-exporter
  namespace: monitoring
spec:
  selector:
    matchLabels:
      app: node-exporter
  template:
    metadata:
      labels:
        app: node-exporter
    spec:
      tolerations:
      - operator: Exists
      containers:
      - name: exporter
        resources:
          requests:
            cpu: 100m
`);

    // Act
    const daemonSet = toDaemonSet(object);

    // Assess
    expect(daemonSet).toEqual({
      namespace: 'monitoring',
      name: 'node-exporter',
      template: {
        labels: { app: 'node-exporter' },
        spec: {
          containers: [{ name: 'exporter', requests: { cpu: 100 } }],
          initContainers: [],
          tolerations: [{ operator: 'Exists' }],
          topologySpreadConstraints: [],
          volumes: [],
        },
      },
    });
  });

  it('names DaemonSet template fields by their full path', () => {
    // Prepare
    const object = objectOf(
      'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers: app\n',
    );

    // Act
    const error = manifestErrorOf(() => toDaemonSet(object));

    // Assess
    expect(error.message).toBe('spec.template.spec.containers: must be a list, got "app"');
  });
});
