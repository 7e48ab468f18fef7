/**
 * Validation failures worded as k8s.io/apimachinery/pkg/util/validation/field words them: the
 * `ErrorBody` ("Invalid value: \"x\": detail") becomes a Status cause, and `field: body` lines
 * are aggregated into the 422 message.
 */

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden';

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  /** Already rendered the way Go's `%#v`/`%q` would print it; absent when the kind omits it. */
  readonly value?: string;
  readonly detail?: string;
}

const TYPE_WORDS: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
};

/** Go's `%q` for the strings validation reports. */
export function quoted(value: string): string {
  return JSON.stringify(value);
}

/** Go's `%#v` of a map[string]string, the form label-map errors print. */
export function goStringMap(map: Readonly<Record<string, string>>): string {
  const entries = Object.keys(map)
    .sort()
    .map((key) => `${quoted(key)}:${quoted(map[key] ?? '')}`);
  return `map[string]string{${entries.join(', ')}}`;
}

export function required(field: string, detail?: string): FieldError {
  return { type: 'FieldValueRequired', field, ...(detail === undefined ? {} : { detail }) };
}

export function invalid(field: string, value: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, value, detail };
}

export function notSupported(
  field: string,
  value: string,
  supported: readonly string[],
): FieldError {
  const detail = `supported values: ${supported.map(quoted).join(', ')}`;
  return { type: 'FieldValueNotSupported', field, value: quoted(value), detail };
}

export function duplicate(field: string, value: string, detail?: string): FieldError {
  return { type: 'FieldValueDuplicate', field, value, ...(detail === undefined ? {} : { detail }) };
}

export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, detail };
}

/** `field.Error.ErrorBody()`: the type words, the bad value when the type shows one, the detail. */
export function errorBody(error: FieldError): string {
  const words = TYPE_WORDS[error.type];
  const shown = error.value === undefined ? words : `${words}: ${error.value}`;
  return error.detail === undefined ? shown : `${shown}: ${error.detail}`;
}

/** `utilerrors.NewAggregate(errs).Error()`: one error reads alone, several are bracketed. */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const lines = errors.map((error) => `${error.field}: ${errorBody(error)}`);
  return lines.length === 1 ? (lines[0] ?? '') : `[${lines.join(', ')}]`;
}
