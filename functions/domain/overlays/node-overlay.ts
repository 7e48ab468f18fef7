/**
 * `karpenter.sh/v1alpha1` NodeOverlay: a price or extended capacity laid over the instance types
 * its requirements select, as Karpenter 1.x reads it (kubernetes-sigs/karpenter
 * pkg/apis/v1alpha1/nodeoverlay.go). The manifest schema validates the document; it is
 * assignable to this type.
 */
import type { NodeSelectorRequirement } from '../requirements/requirement.ts';

export interface NodeOverlay {
  readonly metadata: { readonly name: string };
  readonly spec: {
    /** Well-known labels, `karpenter.sh/nodepool` and the NodePool template's labels. */
    readonly requirements: readonly NodeSelectorRequirement[];
    /** A price per hour that replaces the offering's (`"0.5"`). */
    readonly price?: string;
    /** A change to the offering's price: `"+0.1"`, `"-0.05"`, `"+10%"`, `"-15%"`. */
    readonly priceAdjustment?: string;
    /** Extended resources the node will have, added to or replacing the type's. */
    readonly capacity?: Readonly<Record<string, string | number>>;
    /** Higher weights win; equal weights targeting the same thing conflict. Absent means 0. */
    readonly weight?: number;
  };
}

/**
 * The order overlays are applied in: heavier first, then the name later in the alphabet first
 * (NodeOverlayList.OrderByWeight), so the first to set a value is the one that holds.
 */
export function byPrecedence(a: NodeOverlay, b: NodeOverlay): number {
  const weight = (b.spec.weight ?? 0) - (a.spec.weight ?? 0);
  if (weight !== 0) return weight;
  const [x, y] = [a.metadata.name, b.metadata.name];
  return x > y ? -1 : x < y ? 1 : 0;
}

/** The overlay's price change, the one of `price` and `priceAdjustment` it sets. */
export function priceChangeOf(overlay: NodeOverlay): string | undefined {
  return overlay.spec.price ?? overlay.spec.priceAdjustment;
}

/**
 * The price after a change (cloudprovider.AdjustedPrice): an unsigned value replaces it, a
 * signed one adds to it, a signed percentage scales it; never below zero.
 */
export function overlaidPrice(price: number, change: string): number {
  const sign = change[0];
  if (sign !== '+' && sign !== '-') return Number(change);
  const adjusted = change.endsWith('%')
    ? price * (1 + Number(change.slice(0, -1)) / 100)
    : price + Number(change);
  return Math.max(adjusted, 0);
}
