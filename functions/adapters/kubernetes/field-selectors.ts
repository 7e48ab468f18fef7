/** The field selectors pod lists are narrowed with, so the server leaves out what a pass never reads. */

/** Pods that may still run: a cluster full of finished Jobs does not cost a pass their transfer. */
export const NOT_TERMINAL = 'status.phase!=Succeeded,status.phase!=Failed';

/** An empty value selects pods whose `spec.nodeName` is unset. */
export const PENDING = 'spec.nodeName=,status.phase=Pending';

/** `fields.EscapeValue`: a node name never needs it, but a selector must not be injectable. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (char) => `\\${char}`);
}
