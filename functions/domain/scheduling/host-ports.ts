/**
 * Host ports in use on one node. Two pods conflict on the same protocol and port when either
 * binds all addresses or both bind the same one (core: pkg/scheduling/hostportusage.go).
 */
import type { Pod } from '../pod.ts';

export interface HostPort {
  readonly ip: string;
  readonly port: number;
  readonly protocol: string;
}

const ANY_ADDRESS = new Set(['', '0.0.0.0', '::']);

/** Host ports of the app containers: init containers have exited by the time they would clash. */
export function hostPortsOf(pod: Pod): readonly HostPort[] {
  const ports: HostPort[] = [];
  for (const container of pod.spec.containers) {
    for (const p of container.ports ?? []) {
      if (p.hostPort === undefined || p.hostPort === 0) continue;
      ports.push({ ip: p.hostIP ?? '', port: p.hostPort, protocol: p.protocol ?? 'TCP' });
    }
  }
  return ports;
}

function conflicts(a: HostPort, b: HostPort): boolean {
  if (a.port !== b.port || a.protocol !== b.protocol) return false;
  return ANY_ADDRESS.has(a.ip) || ANY_ADDRESS.has(b.ip) || a.ip === b.ip;
}

export class HostPortUsage {
  private readonly used: HostPort[] = [];

  /** The first requested port already taken, formatted for a reason, or undefined. */
  conflict(requested: readonly HostPort[]): string | undefined {
    for (const want of requested) {
      const taken = this.used.find((have) => conflicts(have, want));
      if (taken !== undefined) return `host port ${want.protocol}/${want.port} is in use`;
    }
    return undefined;
  }

  add(ports: readonly HostPort[]): void {
    this.used.push(...ports);
  }

  copy(): HostPortUsage {
    const out = new HostPortUsage();
    out.add(this.used);
    return out;
  }
}
