import { describe, expect, it } from 'vitest';
import { isCompatibleWithNodeClass } from '../../../functions/domain/instance-types/node-class-compatibility.ts';
import { aNodeClass, buildOne, catalogEntry } from './builders.ts';

const TIMEOUTS = { tcpEstablishedTimeout: 300 };

describe('isCompatibleWithNodeClass', () => {
  // aws: pkg/providers/instancetype/compatibility/suite_test.go, ConnectionTrackingCompatibility
  it.each([
    ['a Nitro type with connection tracking', 'm5.large', TIMEOUTS, true],
    ['a Xen type with connection tracking', 'm4.large', TIMEOUTS, false],
    ['a bare-metal type with connection tracking', 'm5.metal', TIMEOUTS, false],
    ['a Xen type without connection tracking', 'm4.large', undefined, true],
    ['a Nitro type without connection tracking', 'm5.large', undefined, true],
  ])('takes %s: %s', (_case, name, connectionTracking, expected) => {
    // Prepare
    const nodeClass = aNodeClass(connectionTracking === undefined ? {} : { connectionTracking });

    // Act
    const compatible = isCompatibleWithNodeClass(catalogEntry(name), nodeClass);

    // Assess
    expect(compatible).toBe(expected);
  });

  it('leaves the types a class rules out out of the built list', () => {
    // Prepare
    const nodeClass = aNodeClass({ connectionTracking: TIMEOUTS });

    // Act
    const build = () => buildOne('m4.large', { nodeClass });

    // Assess
    expect(build).toThrow('m4.large was not built');
    expect(buildOne('m5.large', { nodeClass }).name).toBe('m5.large');
  });
});
