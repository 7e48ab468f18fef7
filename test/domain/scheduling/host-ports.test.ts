import { describe, expect, it } from 'vitest';
import type { ContainerPort } from '../../../functions/domain/pod.ts';
import {
  type HostPort,
  HostPortUsage,
  hostPortsOf,
} from '../../../functions/domain/scheduling/host-ports.ts';
import { aPodWithContainers } from '../../support/scheduling-builders.ts';

function withPorts(ports: ContainerPort[]) {
  return aPodWithContainers({ containers: [{ name: 'app', requests: {}, ports }] });
}

describe('the host ports a pod binds', () => {
  it('lists the host ports of app containers, defaulting to TCP on every address', () => {
    // Prepare
    const pod = withPorts([
      { containerPort: 80, hostPort: 8080 },
      { containerPort: 53, hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' },
    ]);

    // Act
    const ports = hostPortsOf(pod);

    // Assess
    expect(ports).toEqual([
      { ip: '', port: 8080, protocol: 'TCP' },
      { ip: '10.0.0.1', port: 53, protocol: 'UDP' },
    ]);
  });

  it('ignores container ports that are not bound on the host', () => {
    // Prepare
    const pod = withPorts([{ containerPort: 80 }, { containerPort: 81, hostPort: 0 }]);

    // Act
    const ports = hostPortsOf(pod);

    // Assess
    expect(ports).toEqual([]);
  });
});

describe('host port conflicts on one node', () => {
  const tcp = (port: number, ip = ''): HostPort => ({ ip, port, protocol: 'TCP' });

  it.each<[string, HostPort, HostPort, boolean]>([
    ['the same port on every address', tcp(80), tcp(80), true],
    ['another port', tcp(80), tcp(81), false],
    ['the same port over another protocol', tcp(53), { ip: '', port: 53, protocol: 'UDP' }, false],
    ['every address against one address', tcp(80), tcp(80, '10.0.0.1'), true],
    ['0.0.0.0 against one address', tcp(80, '0.0.0.0'), tcp(80, '10.0.0.1'), true],
    [':: against one address', tcp(80, '::'), tcp(80, '10.0.0.1'), true],
    ['the same address', tcp(80, '10.0.0.1'), tcp(80, '10.0.0.1'), true],
    ['two different addresses', tcp(80, '10.0.0.1'), tcp(80, '10.0.0.2'), false],
  ])('%s conflicts: %s', (_name, used, wanted, conflict) => {
    // Prepare
    const usage = new HostPortUsage();
    usage.add([used]);

    // Act
    const reason = usage.conflict([wanted]);

    // Assess
    expect(reason !== undefined).toBe(conflict);
    if (conflict) expect(reason).toBe(`host port ${wanted.protocol}/${wanted.port} is in use`);
  });

  it('keeps a copy independent of the original', () => {
    // Prepare
    const usage = new HostPortUsage();
    usage.add([tcp(80)]);
    const copy = usage.copy();

    // Act
    copy.add([tcp(81)]);

    // Assess
    expect(usage.conflict([tcp(81)])).toBeUndefined();
    expect(copy.conflict([tcp(80)])).toMatch(/80/);
  });
});
