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

/**
 * 64-bit FNV-1a, in decimal as Karpenter prints its hash. The state is four 16-bit limbs of plain
 * numbers rather than a `bigint`, which allocated twice per character: drift hashes every pool,
 * class and node's pods on every pass. The prime is 2^40 + 0x1b3, so a product is the state times
 * 0x1b3 plus the state shifted left by 40 bits, carried limb by limb and cut to 64 bits.
 */
function fnv1a64(text: string): string {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < text.length; i++) {
    // A UTF-16 code unit is at most 16 bits, so it falls in the lowest limb alone.
    h0 ^= text.charCodeAt(i);
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (t1 >>> 16) + ((h0 & 0xff) << 8);
    const t3 = h3 * 0x1b3 + (t2 >>> 16) + (h0 >>> 8) + ((h1 & 0xff) << 8);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  return ((BigInt(h3) << 48n) | (BigInt(h2) << 32n) | (BigInt(h1) << 16n) | BigInt(h0)).toString();
}

/** The hash of a spec: equal meaning, equal hash. */
export function stableHash(value: unknown): string {
  return fnv1a64(canonical(value) ?? '');
}
