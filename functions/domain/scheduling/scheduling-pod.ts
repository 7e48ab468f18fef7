/**
 * A pending pod inside one scheduling pass: its fixed facts (requests, host ports, volume
 * topology) computed once, and its relaxable preferences with the requirements they imply.
 */
import { Label } from '../labels.ts';
import type { Pod } from '../pod.ts';
import type { Requirements } from '../requirements/requirements.ts';
import { ResourceName, type Resources } from '../resources.ts';
import type { Toleration } from '../taints.ts';
import type { RoomNeed } from './claims-by-load.ts';
import { type HostPort, hostPortsOf } from './host-ports.ts';
import { type PodRequirements, podRequirements } from './pod-requirements.ts';
import { type Preferences, preferencesOf, relax, withoutPreferences } from './preferences.ts';

const TOLERATE_PREFER_NO_SCHEDULE: Toleration = { operator: 'Exists', effect: 'PreferNoSchedule' };

/** The three resources almost every check compares, unpacked for speed. */
export interface CoreRequests {
  readonly cpu: number;
  readonly memory: number;
  readonly pods: number;
  /** Whether any other resource (GPUs, ephemeral storage …) is requested. */
  readonly extended: boolean;
}

export function coreRequests(requests: Resources): CoreRequests {
  let extended = false;
  for (const name in requests) {
    if (name === ResourceName.cpu || name === ResourceName.memory || name === ResourceName.pods)
      continue;
    if ((requests[name] ?? 0) > 0) extended = true;
  }
  return {
    cpu: requests[ResourceName.cpu] ?? 0,
    memory: requests[ResourceName.memory] ?? 0,
    pods: requests[ResourceName.pods] ?? 0,
    extended,
  };
}

export class SchedulingPod {
  readonly pod: Pod;
  readonly requests: Resources;
  readonly core: CoreRequests;
  readonly hostPorts: readonly HostPort[];
  /** Must share a node with other pods (hostname pod affinity): it cannot go elsewhere. */
  readonly coLocated: boolean;
  /** What the pod needs of a claim's room (claims-by-load.ts), made once. */
  readonly need: RoomNeed;
  private readonly volumes: Requirements;
  private prefs: Preferences;
  private reqs: PodRequirements;
  private tolerationsCache: readonly Toleration[];

  constructor(options: {
    pod: Pod;
    requests: Resources;
    volumes: Requirements;
    ignorePreferences: boolean;
  }) {
    this.pod = options.pod;
    this.requests = options.requests;
    this.core = coreRequests(options.requests);
    this.hostPorts = hostPortsOf(options.pod);
    this.coLocated = hasHostnameAffinity(options.pod);
    const { cpu, memory, pods } = this.core;
    this.need = { cpu, memory, pods, coLocated: this.coLocated };
    this.volumes = options.volumes;
    this.prefs = preferencesOf(options.pod);
    if (options.ignorePreferences) this.prefs = withoutPreferences(this.prefs);
    this.reqs = podRequirements(options.pod, this.prefs, this.volumes);
    this.tolerationsCache = options.pod.spec.tolerations;
  }

  get uid(): string {
    return this.pod.uid;
  }

  get preferences(): Preferences {
    return this.prefs;
  }

  get requirements(): PodRequirements {
    return this.reqs;
  }

  get tolerations(): readonly Toleration[] {
    return this.tolerationsCache;
  }

  /** Relaxes one step; returns what was dropped, or undefined when nothing is left. */
  relax(canToleratePreferNoSchedule: boolean): string | undefined {
    const relaxation = relax(this.prefs, canToleratePreferNoSchedule);
    if (relaxation === undefined) return undefined;
    this.prefs = relaxation.preferences;
    this.reqs = podRequirements(this.pod, this.prefs, this.volumes);
    this.tolerationsCache = this.prefs.toleratesPreferNoSchedule
      ? [...this.pod.spec.tolerations, TOLERATE_PREFER_NO_SCHEDULE]
      : this.pod.spec.tolerations;
    return relaxation.dropped;
  }
}

function hasHostnameAffinity(pod: Pod): boolean {
  const affinity = pod.spec.affinity?.podAffinity;
  return (
    (affinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).some(
      (t) => t.topologyKey === Label.hostname,
    ) ||
    (affinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).some(
      (t) => t.podAffinityTerm.topologyKey === Label.hostname,
    )
  );
}
