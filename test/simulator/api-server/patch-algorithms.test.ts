import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../simulator/api-server/json.ts';
import {
  applyJsonPatch,
  decodeJsonPatch,
  JsonPatchApplyError,
} from '../../../simulator/api-server/patch/json-patch.ts';
import { mergePatch } from '../../../simulator/api-server/patch/merge-patch.ts';
import {
  StrategicPatchError,
  strategicMergePatch,
} from '../../../simulator/api-server/patch/strategic-merge-patch.ts';

describe('JSON merge patch (RFC 7386 appendix A)', () => {
  it.each<[JsonValue, JsonValue, JsonValue]>([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('patches %j with %j', (target, patch, expected) => {
    // Act + Assess
    expect(mergePatch(target, patch)).toEqual(expected);
  });
});

describe('JSON patch (RFC 6902)', () => {
  const document: JsonObject = { a: { 'b/c': 1, 'd~e': [1, 2] }, f: 'g' };

  it('applies move and copy, and reads escaped pointers', () => {
    // Act
    const result = applyJsonPatch(
      document,
      decodeJsonPatch([
        { op: 'copy', from: '/a/b~1c', path: '/h' },
        { op: 'move', from: '/a/d~0e/0', path: '/a/d~0e/-' },
        { op: 'add', path: '/a/d~0e/0', value: 0 },
      ]),
    );
    // Assess
    expect(result).toEqual({ a: { 'b/c': 1, 'd~e': [0, 2, 1] }, f: 'g', h: 1 });
    expect(document).toEqual({ a: { 'b/c': 1, 'd~e': [1, 2] }, f: 'g' });
  });

  it.each([
    [{ op: 'remove', path: '/missing' }],
    [{ op: 'replace', path: '/missing', value: 1 }],
    [{ op: 'add', path: '/a/d~0e/5', value: 1 }],
    [{ op: 'test', path: '/f', value: 'x' }],
    [{ op: 'frobnicate', path: '/f' }],
  ])('refuses %j', (operation) => {
    // Act + Assess
    expect(() => applyJsonPatch(document, decodeJsonPatch([operation]))).toThrow(
      JsonPatchApplyError,
    );
  });
});

describe('strategic merge patch', () => {
  const strategies = {
    'spec.items': { mergeKey: 'name' },
    'spec.tags': { mergePrimitives: true },
  } as const;
  const original: JsonObject = {
    spec: {
      items: [
        { name: 'a', value: 1 },
        { name: 'b', value: 2 },
      ],
      tags: ['x'],
      other: [1, 2],
      settings: { keep: 1, drop: 2 },
    },
  };

  it('merges keyed lists, unions primitive lists and replaces other lists', () => {
    // Act
    const result = strategicMergePatch(
      original,
      { spec: { items: [{ name: 'b', value: 3 }, { name: 'c' }], tags: ['y', 'x'], other: [3] } },
      strategies,
    );
    // Assess
    expect(result.spec).toEqual({
      items: [{ name: 'a', value: 1 }, { name: 'b', value: 3 }, { name: 'c' }],
      tags: ['x', 'y'],
      other: [3],
      settings: { keep: 1, drop: 2 },
    });
  });

  it('honours $patch replace and delete, $retainKeys and ignores $setElementOrder', () => {
    // Act
    const result = strategicMergePatch(
      original,
      {
        spec: {
          items: [{ $patch: 'replace' }, { name: 'z' }],
          $setElementOrder: [],
          settings: { $retainKeys: ['keep', 'add'], add: 3 },
          other: null,
        },
      },
      strategies,
    );
    const deleted = strategicMergePatch(
      original,
      { spec: { settings: { $patch: 'delete' } } },
      strategies,
    );
    // Assess
    expect(result.spec).toEqual({
      items: [{ name: 'z' }],
      tags: ['x'],
      settings: { keep: 1, add: 3 },
    });
    expect(deleted.spec).not.toHaveProperty('settings');
  });

  it('refuses a keyed list item without its merge key', () => {
    // Act + Assess
    expect(() =>
      strategicMergePatch(original, { spec: { items: [{ value: 9 }] } }, strategies),
    ).toThrow(StrategicPatchError);
  });
});
