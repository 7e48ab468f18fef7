import { describe, expect, it } from 'vitest';
import {
  fromClaimItem,
  fromDocumentItem,
  toClaimItem,
  toDocumentItem,
  toEventSeenItem,
  toTtl,
} from '../../../functions/adapters/dynamodb/mappers.ts';
import { aNewNodeClaim, aNodePool } from '../../contracts/state-fixtures.ts';

describe('DynamoDB item mappers', () => {
  it('keeps a whole document, fields outside the domain type included, as JSON text', () => {
    const stored = { document: aNodePool('default'), hash: 'h', resourceVersion: 3 };
    const item = toDocumentItem('NodePool', stored);
    expect(item).toMatchObject({ pk: 'NodePool', sk: 'default', hash: 'h', resourceVersion: 3 });
    expect(typeof item.document).toBe('string');
    expect(fromDocumentItem(item)).toEqual(stored);
  });

  it('writes claims without undefined fields, which DynamoDB cannot hold', () => {
    const claim = { ...aNewNodeClaim({ instanceId: undefined }), version: 1 };
    const item = toClaimItem(claim);
    expect(Object.hasOwn(item, 'instanceId')).toBe(false);
    expect(fromClaimItem(item)).toEqual(claim);
  });

  it('rounds the TTL up to whole epoch seconds, so no item is removed before it expires', () => {
    expect(toTtl('2030-01-01T00:00:00.000Z')).toBe(1_893_456_000);
    expect(toTtl('2030-01-01T00:00:00.001Z')).toBe(1_893_456_001);
    expect(toEventSeenItem({ key: 'event-1', expiresAt: '2030-01-01T00:00:00.500Z' }).ttl).toBe(
      1_893_456_001,
    );
  });

  it('fails loudly on an item that is not a claim', () => {
    expect(() => fromClaimItem({ name: 'a', phase: 'Pending' })).toThrow(/field version/);
  });
});
