/**
 * Pure conversions between state records and DynamoDB items (docs/design.md §2.3). Items never hold
 * `undefined` (DynamoDB cannot), so the adapter works whatever marshalling options the injected
 * client has. NodePool and EC2NodeClass documents are kept as JSON text: the store never looks
 * inside them, and text returns every field exactly as submitted.
 */
import type { EventSeen } from '../../domain/state/event-seen.ts';
import type { Lease, LeaseGrant } from '../../domain/state/lease.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { PastDisruption } from '../../domain/state/past-disruption.ts';
import type { RefusingLimit } from '../../domain/state/refusing-limit.ts';
import type { NamedDocument, StoredDocument } from '../../domain/state/stored-document.ts';
import type { UnavailableOffering } from '../../domain/state/unavailable-offering.ts';
import type { WakeWindow } from '../../domain/state/wake-window.ts';
import {
  type DocumentPartition,
  documentKey,
  eventSeenKey,
  offeringKey,
  pastDisruptionKey,
  refusingLimitKey,
} from './keys.ts';
import type { Item } from './pages.ts';

/** A JSON-only copy: drops `undefined` fields at any depth. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function text(item: Item, field: string, what: string): string {
  const value = item[field];
  if (typeof value !== 'string') throw new Error(`reading ${what}: field ${field} is not a string`);
  return value;
}

function count(item: Item, field: string, what: string): number {
  const value = Number(item[field]);
  if (item[field] === undefined || !Number.isFinite(value)) {
    throw new Error(`reading ${what}: field ${field} is not a number`);
  }
  return value;
}

/** DynamoDB's TTL attribute: epoch seconds, rounded up so the item never vanishes early. */
export function toTtl(expiresAt: string): number {
  return Math.ceil(Date.parse(expiresAt) / 1000);
}

export function toDocumentItem<TDocument extends NamedDocument>(
  partition: DocumentPartition,
  stored: StoredDocument<TDocument>,
): Item {
  return {
    ...documentKey(partition, stored.document.metadata.name),
    document: JSON.stringify(stored.document),
    hash: stored.hash,
    resourceVersion: stored.resourceVersion,
  };
}

export function fromDocumentItem<TDocument extends NamedDocument>(
  item: Item,
): StoredDocument<TDocument> {
  const what = `document ${String(item.sk)}`;
  return {
    document: JSON.parse(text(item, 'document', what)) as TDocument,
    hash: text(item, 'hash', what),
    resourceVersion: count(item, 'resourceVersion', what),
  };
}

export function toClaimItem(claim: NodeClaimRecord): Item {
  return plain(claim) as unknown as Item;
}

export function fromClaimItem(item: Item): NodeClaimRecord {
  const what = `node claim ${String(item.name)}`;
  text(item, 'name', what);
  text(item, 'phase', what);
  count(item, 'version', what);
  return { ...item, version: count(item, 'version', what) } as unknown as NodeClaimRecord;
}

export function toOfferingItem(offering: UnavailableOffering): Item {
  return {
    ...offeringKey(offering),
    instanceType: offering.instanceType,
    zone: offering.zone,
    capacityType: offering.capacityType,
    ...(offering.reservationId === undefined ? {} : { reservationId: offering.reservationId }),
    expiresAt: offering.expiresAt,
    ttl: toTtl(offering.expiresAt),
  };
}

export function fromOfferingItem(item: Item): UnavailableOffering {
  const what = `unavailable offering ${String(item.sk)}`;
  return {
    instanceType: text(item, 'instanceType', what),
    zone: text(item, 'zone', what),
    capacityType: text(item, 'capacityType', what) as UnavailableOffering['capacityType'],
    ...(typeof item.reservationId === 'string' ? { reservationId: item.reservationId } : {}),
    expiresAt: text(item, 'expiresAt', what),
  };
}

/** The previous acquisition of a lease taken for the first time (an item's values cannot be absent). */
export const NEVER_ACQUIRED = '';

export function toLeaseGrant(item: Item): LeaseGrant {
  const { previousAcquiredAt } = item;
  return {
    holder: text(item, 'holder', 'lease'),
    fencingToken: count(item, 'fencingToken', 'lease'),
    expiresAt: text(item, 'expiresAt', 'lease'),
    ...(typeof previousAcquiredAt === 'string' && previousAcquiredAt !== NEVER_ACQUIRED
      ? { previousAcquiredAt }
      : {}),
  };
}

/** The lease as stored; a released one has no holder or expiry, only its token and last acquisition. */
export function toLease(item: Item): Lease {
  const { holder, expiresAt, acquiredAt } = item;
  return {
    fencingToken: count(item, 'fencingToken', 'lease'),
    ...(typeof holder === 'string' ? { holder } : {}),
    ...(typeof expiresAt === 'string' ? { expiresAt } : {}),
    ...(typeof acquiredAt === 'string' ? { acquiredAt } : {}),
  };
}

export function toEventSeenItem(seen: EventSeen): Item {
  return { ...eventSeenKey(seen.key), expiresAt: seen.expiresAt, ttl: toTtl(seen.expiresAt) };
}

export function toPastDisruptionItem(ended: PastDisruption): Item {
  return { ...pastDisruptionKey(ended.nodeClaim), ...ended, ttl: toTtl(ended.expiresAt) };
}

export function fromPastDisruptionItem(item: Item): PastDisruption {
  const what = `past disruption ${String(item.sk)}`;
  const nodeName = item.nodeName;
  return {
    nodeClaim: text(item, 'nodeClaim', what),
    nodePool: text(item, 'nodePool', what),
    ...(typeof nodeName === 'string' ? { nodeName } : {}),
    reason: text(item, 'reason', what),
    message: text(item, 'message', what),
    decidedAt: text(item, 'decidedAt', what),
    endedAt: text(item, 'endedAt', what),
    expiresAt: text(item, 'expiresAt', what),
  };
}

export function toRefusingLimitItem(limit: RefusingLimit): Item {
  return { ...refusingLimitKey(limit.key), ...limit };
}

export function fromRefusingLimitItem(item: Item): RefusingLimit {
  const what = `refusing limit ${String(item.sk)}`;
  const nodePool = item.nodePool;
  return {
    key: text(item, 'key', what),
    ...(typeof nodePool === 'string' ? { nodePool } : {}),
    limit: text(item, 'limit', what),
    message: text(item, 'message', what),
    since: text(item, 'since', what),
  };
}

/**
 * The wake window a failed condition handed back: DynamoDB's own attribute values (`{S}`,
 * `{BOOL}`), which the document client does not unmarshall inside an error.
 */
export function fromWakeWindowAttributes(attributes: unknown): WakeWindow {
  const item = (attributes ?? {}) as Record<string, { S?: unknown; BOOL?: unknown } | undefined>;
  const endsAt = item.endsAt?.S;
  if (typeof endsAt !== 'string') {
    throw new Error('reading wake window: field endsAt is not a string');
  }
  return { endsAt, deferredTaken: item.deferredTaken?.BOOL === true };
}
