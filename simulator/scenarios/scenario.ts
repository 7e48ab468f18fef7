/**
 * A simulation scenario: the user's configuration (NodePools, EC2NodeClasses and anything else
 * `plan` reads, as manifest files), the cluster it starts from, and the workload that arrives
 * over simulated time.
 */

import type { OfferingKey } from '../../functions/domain/state/unavailable-offering.ts';
import type { ManifestFile } from '../../functions/manifests/load-cluster.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { ResourceName } from '../api-server/resource-names.ts';
import type { ForeignInstance } from '../cloud/simulated-cloud.ts';
import type { SimulatedReservation } from '../cloud/simulated-reservations.ts';

export interface ScenarioStep {
  /** Seconds after the start. */
  readonly at: number;
  /** `web scaled to 120 replicas`. */
  readonly description: string;
  /** Pods the workloads create (and their controllers keep). */
  readonly pods: readonly JsonObject[];
  /** Pods a scale-down removes, as `namespace/name`. */
  readonly removePods?: readonly string[];
  /** Spot instances EC2 warns it will reclaim in two minutes, oldest first. */
  readonly interruptSpot?: number;
  /** Nodes deleted as `kubectl delete node` deletes them, those running the most pods first. */
  readonly deleteNodes?: number;
  /** NodePools or EC2NodeClasses applied again, changed (a new AMI, new labels). */
  readonly apply?: readonly ManifestFile[];
}

/** An object the cluster holds before the run starts. */
export interface SeededObject {
  readonly resource: ResourceName;
  readonly object: JsonObject;
}

export interface Scenario {
  readonly name: string;
  readonly region: string;
  readonly zones: readonly string[];
  /** NodePools, EC2NodeClasses and cluster objects, read as `plan` reads them. */
  readonly manifests: readonly ManifestFile[];
  /** The cluster's limits over every pool, as `nodesmith limits set` would store them. */
  readonly clusterLimits?: Readonly<Record<string, string>>;
  /** Objects the cluster holds from the start: existing nodes and their pods, DaemonSets, volumes. */
  readonly cluster?: readonly SeededObject[];
  /** Instances running from the start that Nodesmith did not launch (Karpenter's, node groups'). */
  readonly instances?: readonly ForeignInstance[];
  /**
   * The controller adopts Karpenter's settled nodes of the scenario's NodePools, as the
   * `adoptKarpenterNodes` setting: a dump's nodes of its own NodePools are taken as Nodesmith's.
   */
  readonly adoptKarpenterNodes?: boolean;
  readonly steps: readonly ScenarioStep[];
  /**
   * Spot prices: `market` simulates a spot market (30–40 % of on-demand); `list` prices spot at
   * on-demand, as `plan` does until live prices are known, so a dump launches what `plan` shows.
   */
  readonly prices?: 'market' | 'list';
  /**
   * How many of the cheapest offerings of the scenario's pools have no capacity: the
   * capacity-errors scenario exhausts them so the first choices fail.
   */
  readonly exhaustCheapest?: number;
  /** Offerings with no capacity from the start. */
  readonly exhausted?: readonly OfferingKey[];
  /** The account's capacity reservations. */
  readonly reservations?: readonly SimulatedReservation[];
  /** Zones where spot capacity has run out for every type. */
  readonly spotExhaustedZones?: readonly string[];
  /** The run ends by then even if pods are still pending. */
  readonly maxSeconds: number;
  /**
   * The run does not end sooner than this after its last step, settled or not: time for
   * `consolidateAfter`, validation and drains to play out, or for EC2 to reclaim a node.
   */
  readonly quietSeconds?: number;
}
