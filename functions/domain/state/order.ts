/**
 * The order in which the state store lists records. Both adapters sort with these, so a list
 * reads the same whichever store produced it (docs/design.md §5.5: sorted inputs, stable
 * decisions).
 */

/** Code-unit order, independent of locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byName(a: { readonly name: string }, b: { readonly name: string }): number {
  return compareText(a.name, b.name);
}

export function byDocumentName(
  a: { readonly document: { readonly metadata: { readonly name: string } } },
  b: { readonly document: { readonly metadata: { readonly name: string } } },
): number {
  return compareText(a.document.metadata.name, b.document.metadata.name);
}
