import { describe, expect, it } from 'vitest';
import { toNamespace } from '../../../functions/manifests/kubernetes/namespace.ts';
import { objectOf } from '../manifest-fixtures.ts';

describe('toNamespace', () => {
  it('maps a Namespace to its name and labels', () => {
    // Prepare
    const object = objectOf(
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n  labels:\n    team: checkout\n',
    );

    // Act
    const namespace = toNamespace(object);

    // Assess
    expect(namespace).toEqual({ name: 'shop', labels: { team: 'checkout' } });
  });
});
