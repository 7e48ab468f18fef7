/**
 * The random parts of the names controllers give pods (`web-7d9c5b6f4d-x2k8p`). `plan` and
 * `disruption` must answer the same for the same files, so their suffixes come from a counter;
 * the simulation passes its seeded generator.
 */
export type NameSuffix = (length: number) => string;

/** The alphabet of Kubernetes' rand.String: no vowels, no look-alikes. */
export const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-1a of the counter, spelt in the alphabet: the same sequence for every run. */
export function countingSuffixes(): NameSuffix {
  let counter = 0;
  return (length) => {
    counter += 1;
    let hash = 0x811c9dc5;
    for (const char of String(counter)) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
    let out = '';
    for (let i = 0; i < length; i++) {
      hash = Math.imul(hash ^ i, 0x01000193) >>> 0;
      out += SUFFIX_ALPHABET[hash % SUFFIX_ALPHABET.length];
    }
    return out;
  };
}
