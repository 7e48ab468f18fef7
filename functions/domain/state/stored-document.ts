/**
 * A NodePool, EC2NodeClass, NodeOverlay or the cluster's limits as the state store keeps it:
 * the whole document the operator submitted (every field, not only the parts decisions read), a
 * content hash the caller computed (drift detection compares it) and a resourceVersion for
 * optimistic concurrency.
 */

/** Any document addressed by `metadata.name`, as Karpenter's kinds are. */
export interface NamedDocument {
  readonly metadata: { readonly name: string };
}

export interface StoredDocument<TDocument extends NamedDocument> {
  readonly document: TDocument;
  readonly hash: string;
  /** 1 when created; every successful put adds one. */
  readonly resourceVersion: number;
}
