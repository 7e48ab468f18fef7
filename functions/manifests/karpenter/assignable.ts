/**
 * `Assignable<Document, Domain>` is `Document`, and fails to compile unless a parsed document can
 * be used wherever the domain expects its own type: the schema may add fields, never contradict.
 */
export type Assignable<T extends U, U> = T;
