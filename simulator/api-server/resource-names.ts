/** The resources the fake serves, by their plural URL names. */
export const RESOURCE_NAMES = [
  'pods',
  'nodes',
  'namespaces',
  'events',
  'persistentvolumes',
  'persistentvolumeclaims',
  'daemonsets',
  'poddisruptionbudgets',
  'storageclasses',
  'csinodes',
  'runtimeclasses',
  'nodeclaims',
  'validatingwebhookconfigurations',
] as const;

export type ResourceName = (typeof RESOURCE_NAMES)[number];
