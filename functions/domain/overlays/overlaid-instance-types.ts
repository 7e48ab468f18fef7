/**
 * The instance types each NodePool may launch, with the NodeOverlays laid over them as Karpenter
 * lays them (kubernetes-sigs/karpenter pkg/controllers/nodeoverlay/controller.go and store.go):
 * overlays in order of precedence, the first to set an offering's price or a resource holds; an
 * overlay that targets something an overlay of the same weight already targets conflicts and is
 * not applied anywhere.
 */
import type { InstanceType, Offering } from '../instance-type.ts';
import { Label } from '../labels.ts';
import type { NodePool } from '../node-pool.ts';
import { has } from '../requirements/requirement.ts';
import {
  add,
  fromLabels,
  fromNodeSelector,
  isCompatible,
  type Requirements,
} from '../requirements/requirements.ts';
import { parseResources, type Resources } from '../resources.ts';
import { byPrecedence, type NodeOverlay, overlaidPrice, priceChangeOf } from './node-overlay.ts';

export interface OverlayConflict {
  /** The overlay not applied. */
  readonly overlay: string;
  /** The overlay of the same weight that already targets one of its offerings or resources. */
  readonly with: string;
}

export interface OverlaidInstanceTypes {
  readonly instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
  readonly conflicts: readonly OverlayConflict[];
}

/** The last overlay to target a value: equal weights after it conflict. */
interface Mark {
  readonly weight: number;
  readonly overlay: string;
}

interface Setting<T> {
  readonly value: T;
  last: Mark;
}

interface TypeUpdate {
  readonly type: InstanceType;
  /** By offering index: the price change that holds. */
  readonly prices: Map<number, Setting<string>>;
  readonly capacity: Map<string, Setting<number>>;
}

/** One instance type of one pool an overlay selects, with the offerings it selects. */
interface Target {
  readonly pool: string;
  readonly type: InstanceType;
  readonly offerings: readonly number[];
}

export function overlayInstanceTypes(
  nodePools: readonly NodePool[],
  instanceTypes: ReadonlyMap<string, readonly InstanceType[]>,
  overlays: readonly NodeOverlay[],
): OverlaidInstanceTypes {
  if (overlays.length === 0) return { instanceTypes, conflicts: [] };
  const updates = new OverlayUpdates();
  const selection = new Selection(nodePools, instanceTypes);
  const conflicts: OverlayConflict[] = [];
  for (const overlay of [...overlays].sort(byPrecedence)) {
    const targets = selection.targetsOf(overlay);
    const conflict = updates.conflictOf(overlay, targets);
    if (conflict === undefined) updates.record(overlay, targets);
    else conflicts.push({ overlay: overlay.metadata.name, with: conflict });
  }
  return { instanceTypes: updates.applied(instanceTypes), conflicts };
}

/** Which pools' instance types and offerings an overlay's requirements select. */
class Selection {
  readonly #pools: readonly NodePool[];
  readonly #instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
  /** Per pool, the labels its nodes get before the type's: its name and template labels. */
  readonly #poolLabels = new Map<string, Requirements>();

  constructor(
    pools: readonly NodePool[],
    instanceTypes: ReadonlyMap<string, readonly InstanceType[]>,
  ) {
    this.#pools = pools;
    this.#instanceTypes = instanceTypes;
  }

  targetsOf(overlay: NodeOverlay): Target[] {
    const requirements = fromNodeSelector(overlay.spec.requirements);
    const targets: Target[] = [];
    for (const pool of this.#pools) {
      const name = pool.metadata.name;
      const labels = this.#labelsOf(pool);
      for (const type of this.#instanceTypes.get(name) ?? []) {
        // Custom labels must be defined by the pool; well-known ones by the type (getOverlaidOfferings).
        if (!isCompatible(add(labels, type.requirements), requirements, false)) continue;
        const offerings = selectedOfferings(type.offerings, requirements);
        if (offerings.length > 0) targets.push({ pool: name, type, offerings });
      }
    }
    return targets;
  }

  #labelsOf(pool: NodePool): Requirements {
    const name = pool.metadata.name;
    let labels = this.#poolLabels.get(name);
    if (labels === undefined) {
      const template = pool.spec.template.metadata?.labels;
      labels = fromLabels({ ...template, [Label.nodePool]: name });
      this.#poolLabels.set(name, labels);
    }
    return labels;
  }
}

/** Indexes of the offerings whose zone, zone id, capacity type and reservation the overlay allows. */
function selectedOfferings(offerings: readonly Offering[], requirements: Requirements): number[] {
  const allows = (key: string, value: string | undefined): boolean => {
    const req = requirements.get(key);
    return req === undefined || value === undefined || has(req, value);
  };
  const selected: number[] = [];
  offerings.forEach((o, index) => {
    if (
      allows(Label.zone, o.zone) &&
      allows(Label.zoneId, o.zoneId) &&
      allows(Label.capacityType, o.capacityType) &&
      allows(Label.capacityReservationId, o.reservationId)
    ) {
      selected.push(index);
    }
  });
  return selected;
}

/** What the overlays applied so far set, per pool and instance type. */
class OverlayUpdates {
  readonly #byPool = new Map<string, Map<string, TypeUpdate>>();

  /** The overlay of equal weight this one would contradict, if any. */
  conflictOf(overlay: NodeOverlay, targets: readonly Target[]): string | undefined {
    const intent: Intent = {
      weight: overlay.spec.weight ?? 0,
      setsPrice: priceChangeOf(overlay) !== undefined,
      resources: Object.keys(overlay.spec.capacity ?? {}),
    };
    for (const target of targets) {
      const update = this.#byPool.get(target.pool)?.get(target.type.name);
      const other = update === undefined ? undefined : contradicted(update, target, intent);
      if (other !== undefined) return other;
    }
    return undefined;
  }

  record(overlay: NodeOverlay, targets: readonly Target[]): void {
    const mark: Mark = { weight: overlay.spec.weight ?? 0, overlay: overlay.metadata.name };
    const change = priceChangeOf(overlay);
    const capacity = parseResources(overlay.spec.capacity);
    for (const target of targets) {
      const update = this.#updateOf(target);
      if (change !== undefined) {
        for (const index of target.offerings) settle(update.prices, index, change, mark);
      }
      for (const [resource, amount] of Object.entries(capacity)) {
        settle(update.capacity, resource, amount, mark);
      }
    }
  }

  applied(
    instanceTypes: ReadonlyMap<string, readonly InstanceType[]>,
  ): ReadonlyMap<string, readonly InstanceType[]> {
    const out = new Map<string, readonly InstanceType[]>();
    for (const [pool, types] of instanceTypes) {
      const updates = this.#byPool.get(pool);
      out.set(
        pool,
        updates === undefined ? types : types.map((t) => withUpdate(t, updates.get(t.name))),
      );
    }
    return out;
  }

  #updateOf(target: Target): TypeUpdate {
    let byType = this.#byPool.get(target.pool);
    if (byType === undefined) {
      byType = new Map();
      this.#byPool.set(target.pool, byType);
    }
    let update = byType.get(target.type.name);
    if (update === undefined) {
      update = { type: target.type, prices: new Map(), capacity: new Map() };
      byType.set(target.type.name, update);
    }
    return update;
  }
}

/** What an overlay would set, for finding conflicts. */
interface Intent {
  readonly weight: number;
  readonly setsPrice: boolean;
  readonly resources: readonly string[];
}

/** The overlay of the intent's weight that already targets a price or resource it would set. */
function contradicted(update: TypeUpdate, target: Target, intent: Intent): string | undefined {
  const settings: (Setting<unknown> | undefined)[] = intent.resources.map((r) =>
    update.capacity.get(r),
  );
  if (intent.setsPrice) settings.push(...target.offerings.map((i) => update.prices.get(i)));
  return settings.find((s) => s?.last.weight === intent.weight)?.last.overlay;
}

/** The first value set holds; a later overlay only becomes the last to target it. */
function settle<K, T>(settings: Map<K, Setting<T>>, key: K, value: T, mark: Mark): void {
  const setting = settings.get(key);
  if (setting === undefined) settings.set(key, { value, last: mark });
  else setting.last = mark;
}

function withUpdate(type: InstanceType, update: TypeUpdate | undefined): InstanceType {
  if (update === undefined) return type;
  const offerings =
    update.prices.size === 0
      ? type.offerings
      : type.offerings.map((offering, index) => {
          const change = update.prices.get(index)?.value;
          if (change === undefined) return offering;
          const pricePerHour = overlaidPrice(offering.pricePerHour, change);
          return { ...offering, pricePerHour, priceOverlaid: true };
        });
  if (update.capacity.size === 0) return { ...type, offerings };
  // Extended resources only (the schema refuses cpu, memory, storage and pods): no overhead.
  const extra: Resources = Object.fromEntries(
    [...update.capacity].map(([resource, setting]) => [resource, setting.value]),
  );
  return {
    ...type,
    offerings,
    capacity: { ...type.capacity, ...extra },
    allocatable: { ...type.allocatable, ...extra },
    capacityOverlaid: true,
  };
}
