/**
 * The hash static drift compares, as Karpenter's hashstructure options make it: lists compared
 * as sets and empty values as absent, so a spec written differently but meaning the same hashes
 * the same.
 */

/** JSON with sorted keys, arrays as sorted sets and empty values dropped: equal specs, equal text. */
function canonical(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) {
    return undefined;
  }
  if (Array.isArray(value)) {
    const items = value.map(canonical).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : `[${items.sort().join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .flatMap((key) => {
        const text = canonical((value as Record<string, unknown>)[key]);
        return text === undefined ? [] : [`${JSON.stringify(key)}:${text}`];
      });
    return entries.length === 0 ? undefined : `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** 64-bit FNV-1a, in decimal as Karpenter prints its hash. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString();
}

/** The hash of a spec: equal meaning, equal hash. */
export function stableHash(value: unknown): string {
  return fnv1a64(canonical(value) ?? '');
}
