/** Kubernetes label selectors (matchLabels + matchExpressions) and how they match labels. */

export type Labels = Readonly<Record<string, string>>;

export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values?: readonly string[];
}

export interface LabelSelector {
  readonly matchLabels?: Labels;
  readonly matchExpressions?: readonly LabelSelectorRequirement[];
}

function matchesExpression(labels: Labels, expression: LabelSelectorRequirement): boolean {
  const value = labels[expression.key];
  switch (expression.operator) {
    case 'In':
      return value !== undefined && (expression.values ?? []).includes(value);
    case 'NotIn':
      return value === undefined || !(expression.values ?? []).includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
  }
}

/** An absent selector matches nothing; an empty one matches everything (Kubernetes semantics). */
export function selectorMatches(selector: LabelSelector | undefined, labels: Labels): boolean {
  if (selector === undefined) return false;
  for (const key in selector.matchLabels) {
    if (labels[key] !== selector.matchLabels[key]) return false;
  }
  return (selector.matchExpressions ?? []).every((expression) =>
    matchesExpression(labels, expression),
  );
}

/** A stable text form, usable as a map key. */
export function selectorKey(selector: LabelSelector | undefined): string {
  if (selector === undefined) return '<none>';
  const labels = Object.entries(selector.matchLabels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  const expressions = (selector.matchExpressions ?? [])
    .map((e) => `${e.key} ${e.operator} (${[...(e.values ?? [])].sort().join(',')})`)
    .sort();
  return [...labels, ...expressions].join(';');
}
