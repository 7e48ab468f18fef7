/**
 * Condition expressions as named fragments (docs/design.md §2.3), spread into a command's input.
 * Every create is conditional on absence, every replace on the version read, every fenced write on
 * the lease still carrying the writer's token.
 */
import type { Fence, LeaseGrant } from '../../domain/state/lease.ts';
import type { WakeWindow } from '../../domain/state/wake-window.ts';
import { StateAttribute } from './keys.ts';

export interface ConditionParts {
  readonly ConditionExpression: string;
  readonly ExpressionAttributeNames: Record<string, string>;
  readonly ExpressionAttributeValues?: Record<string, unknown>;
}

/** Create: nothing is stored under this key yet. */
export function isNew(keyAttribute: string): ConditionParts {
  return {
    ConditionExpression: 'attribute_not_exists(#key)',
    ExpressionAttributeNames: { '#key': keyAttribute },
  };
}

/** Replace: the stored item is at `version` (and so exists). */
export function hasVersion(versionAttribute: string, version: number): ConditionParts {
  return {
    ConditionExpression: '#version = :version',
    ExpressionAttributeNames: { '#version': versionAttribute },
    ExpressionAttributeValues: { ':version': version },
  };
}

/** Delete: already gone, or at `version`. */
export function isGoneOrHasVersion(
  keyAttribute: string,
  versionAttribute: string,
  version: number,
): ConditionParts {
  return {
    ConditionExpression: 'attribute_not_exists(#key) OR #version = :version',
    ExpressionAttributeNames: { '#key': keyAttribute, '#version': versionAttribute },
    ExpressionAttributeValues: { ':version': version },
  };
}

/** Record once: never seen, or remembered only until before `now` (TTL deletes lazily). */
export function isNewOrExpired(keyAttribute: string, now: Date): ConditionParts {
  return {
    ConditionExpression: 'attribute_not_exists(#key) OR #expiresAt <= :now',
    ExpressionAttributeNames: { '#key': keyAttribute, '#expiresAt': StateAttribute.expiresAt },
    ExpressionAttributeValues: { ':now': now.toISOString() },
  };
}

/** Acquire: the lease is free (never taken or released), expired, or already `holder`'s. */
export function isLeaseFreeFor(holder: string, now: Date): ConditionParts {
  return {
    ConditionExpression: 'attribute_not_exists(#holder) OR #holder = :holder OR #expiresAt <= :now',
    ExpressionAttributeNames: {
      '#holder': StateAttribute.holder,
      '#expiresAt': StateAttribute.expiresAt,
    },
    ExpressionAttributeValues: { ':holder': holder, ':now': now.toISOString() },
  };
}

/** Renew and release: the lease is still exactly this grant. */
export function isLeaseHeldBy(grant: LeaseGrant): ConditionParts {
  return {
    ConditionExpression: '#holder = :holder AND #token = :token',
    ExpressionAttributeNames: {
      '#holder': StateAttribute.holder,
      '#token': StateAttribute.fencingToken,
    },
    ExpressionAttributeValues: { ':holder': grant.holder, ':token': grant.fencingToken },
  };
}

/** Fenced write: the fence's token is the latest handed out and not released (domain `admitsFence`). */
export function admitsFence(fence: Fence): ConditionParts {
  return {
    ConditionExpression: 'attribute_exists(#holder) AND #token = :token',
    ExpressionAttributeNames: {
      '#holder': StateAttribute.holder,
      '#token': StateAttribute.fencingToken,
    },
    ExpressionAttributeValues: { ':token': fence.fencingToken },
  };
}

/** Open a wake window: none was ever opened, or the last one closed by `now` (domain `takeWakeTurn`). */
export function isWakeWindowClosed(now: Date): ConditionParts {
  return {
    ConditionExpression: 'attribute_not_exists(#endsAt) OR #endsAt <= :now',
    ExpressionAttributeNames: { '#endsAt': StateAttribute.endsAt },
    ExpressionAttributeValues: { ':now': now.toISOString() },
  };
}

/** Take the delayed wake: the window read is still the one stored, and nobody took it yet. */
export function isDeferredWakeFree(window: WakeWindow): ConditionParts {
  return {
    ConditionExpression: '#endsAt = :endsAt AND #deferredTaken = :free',
    ExpressionAttributeNames: {
      '#endsAt': StateAttribute.endsAt,
      '#deferredTaken': StateAttribute.deferredTaken,
    },
    ExpressionAttributeValues: { ':endsAt': window.endsAt, ':free': false },
  };
}
