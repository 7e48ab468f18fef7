import { describe, expect, it } from 'vitest';
import { stableHash } from '../../../functions/domain/disruption/stable-hash.ts';

/** 64-bit FNV-1a as its definition states it, over UTF-16 code units, in decimal. */
function fnv1a64Reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString();
}

describe('the stable hash', () => {
  it('hashes an empty spec to the FNV-1a offset basis', () => {
    // Prepare: values that mean nothing once empty values are dropped.
    const empties = [undefined, {}, [], { a: '' }, { a: [] }];

    // Act
    const hashes = empties.map(stableHash);

    // Assess: the 64-bit offset basis, as Karpenter's hash of an empty struct.
    expect(new Set(hashes)).toEqual(new Set(['14695981039346656037']));
  });

  it.each([
    ['a short string', 'a'],
    ['a number', 42],
    ['a spec', { labels: { team: 'x' }, requirements: [{ key: 'zone', values: ['a', 'b'] }] }],
    ['text beyond Latin-1', { label: 'équipe-ñ-日本-€' }],
    ['characters outside the basic plane', '🚀🚀 nodes'],
    ['a long text', 'x'.repeat(10_000)],
  ])('gives FNV-1a of the canonical text for %s', (_name, value) => {
    // Prepare: each value is written canonically already (keys and lists in order), so its
    // canonical text is its JSON.
    const text = JSON.stringify(value);

    // Act
    const hash = stableHash(value);

    // Assess
    expect(hash).toBe(fnv1a64Reference(text));
  });

  it('keys the canonical text on meaning: order of keys and of list items does not matter', () => {
    // Prepare
    const one = { b: ['y', 'x'], a: 1 };
    const other = { a: 1, b: ['x', 'y'] };

    // Act
    const hashes = [stableHash(one), stableHash(other)];

    // Assess
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[0]).toBe(fnv1a64Reference('{"a":1,"b":["x","y"]}'));
  });
});
