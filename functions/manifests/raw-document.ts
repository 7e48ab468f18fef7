/** The YAML and JSON readers' common output: a document's value and where its text lies, before it is read as a Kubernetes object. */

/** A node's place in its file: offsets of its first character and just past its end, and its 1-based line. */
export interface TextSpan {
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

export interface RawDocument {
  readonly value: unknown;
  readonly span: TextSpan;
  /** Spans of the entries of a top-level `items` sequence, so each item of a `kind: List` keeps its own line. */
  readonly items: readonly TextSpan[];
}
