/** Documents that attack their reader: alias bombs and deep nesting. */

/**
 * A Karpenter document whose labels hold `levels` anchors, each a list of nine aliases of the
 * one before: 9^levels leaves from a few hundred bytes (nine levels: 387 million, under 1 KB).
 */
export function aliasChain(levels: number, kind = 'NodePool', apiVersion = 'karpenter.sh/v1') {
  const lines = [`apiVersion: ${apiVersion}`, `kind: ${kind}`, 'metadata:', '  name: default'];
  lines.push('  labels:', '    a0: &a0 [x, x, x, x, x, x, x, x, x]');
  for (let level = 1; level <= levels; level++) {
    lines.push(
      `    a${level}: &a${level} [${Array(9)
        .fill(`*a${level - 1}`)
        .join(', ')}]`,
    );
  }
  return `${lines.join('\n')}\nspec: {}\n`;
}

/** `depth` nested collections, opened by `open` and closed by `close`. */
export function nested(open: string, close: string, depth: number): string {
  return `${open.repeat(depth)}${close.repeat(depth)}`;
}
