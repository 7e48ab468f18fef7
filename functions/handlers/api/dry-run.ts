/**
 * The API's dry run, `POST /v1/plan`: the cluster's pending pods planned on the bundled catalog
 * and on-demand prices, as `nodesmith plan` plans them. The composition root loads this module
 * with the first dry run, not at import (docs/design.md §7.1): planning, the catalog and the
 * Kubernetes client are most of the bundle, and no other route needs them.
 */
import { BundledInstanceTypes } from '../../adapters/bundled/bundled-instance-types.ts';
import type { KubeConfigs } from '../../adapters/eks/kube-config-provider.ts';
import { kubernetesClusterFrom } from '../../adapters/kubernetes/kubernetes-cluster.ts';
import { onDemandPrices } from '../../domain/instance-types/prices.ts';
import type { ClusterLimits } from '../../domain/limits/cluster-limits.ts';
import type { StateStore } from '../../ports/state-store.ts';
import { type LiveDryRun, liveDryRun } from '../../use-cases/plan/live-dry-run.ts';

export interface DryRunOptions {
  readonly region: string;
  readonly state: StateStore;
  readonly kubeConfigs: KubeConfigs;
  readonly startingLimits: ClusterLimits | undefined;
}

/** One dry run after another, on instance types built once for the container. */
export function makeDryRun(options: DryRunOptions): () => Promise<LiveDryRun> {
  const { region, state, kubeConfigs, startingLimits } = options;
  const instanceTypes = new BundledInstanceTypes({ region, prices: onDemandPrices(region) });
  return async () =>
    liveDryRun({
      cluster: kubernetesClusterFrom(await kubeConfigs.current()),
      state,
      instanceTypes,
      region,
      ...(startingLimits === undefined ? {} : { startingLimits }),
    });
}
