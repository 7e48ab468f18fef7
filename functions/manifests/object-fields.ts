/**
 * A document's fields: a mapping, not an array or a scalar. Its own file so that the schemas
 * and the functions that check documents from the state store or the environment do not load
 * the YAML and JSON readers of documents.ts with it.
 */
export type ObjectFields = Readonly<Record<string, unknown>>;

export function isObjectFields(value: unknown): value is ObjectFields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
