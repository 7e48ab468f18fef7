import { describe, expect, it } from 'vitest';
import { toRuntimeClass } from '../../../functions/manifests/kubernetes/runtime-class.ts';
import { manifestErrorOf, objectOf } from '../manifest-fixtures.ts';

describe('toRuntimeClass', () => {
  it('maps a RuntimeClass, checking its overhead quantities and keeping them as written', () => {
    // Prepare
    const object = objectOf(`apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata:
  name: gvisor
handler: runsc
overhead:
  podFixed:
    cpu: 250m
    memory: 120Mi
scheduling:
  nodeSelector:
    sandbox: gvisor
  tolerations:
  - key: sandbox
    operator: Exists
`);

    // Act
    const runtimeClass = toRuntimeClass(object);

    // Assess
    expect(runtimeClass).toEqual({
      name: 'gvisor',
      overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
      scheduling: {
        nodeSelector: { sandbox: 'gvisor' },
        tolerations: [{ key: 'sandbox', operator: 'Exists' }],
      },
    });
  });

  it('rejects a RuntimeClass overhead that is not a quantity', () => {
    // Prepare
    const object = objectOf(
      'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: r\nhandler: h\noverhead:\n  podFixed:\n    memory: lots\n',
    );

    // Act
    const error = manifestErrorOf(() => toRuntimeClass(object));

    // Assess
    expect(error.message).toBe(
      'overhead.podFixed.memory: quantity "lots" is not a valid Kubernetes quantity',
    );
  });
});
