/**
 * A copy of a value as the DynamoDB store would hand it back: only JSON-representable data
 * survives (DynamoDB cannot hold `undefined`), and nothing is shared with the caller's object.
 * Copying on the way in and on the way out keeps the twin's semantics identical to the real one.
 */
export function copyAsStored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
