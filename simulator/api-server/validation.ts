/**
 * The validation every object gets (`ValidateObjectMeta`): name format, namespace presence, label
 * keys and values, annotation keys, with apimachinery `util/validation` messages word for word;
 * and on update (`ValidateObjectMetaUpdate`), no new finalizer on an object being deleted.
 */

import { type FieldError, forbidden, invalid, quoted, required } from './field-errors.ts';
import { type JsonObject, stringMapAt } from './json.ts';
import { finalizersOf, isDeleting, nameOf, namespaceOf } from './object-meta.ts';
import type { ResourceDescriptor } from './resource-descriptor.ts';

/** `validation.RegexError`, including its double space between examples. */
function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  const shown = examples.map((example) => `'${example}', `).join(' or ');
  return `${message} (e.g. ${shown}regex used for validation is '${format}')`;
}

function maxLengthError(length: number): string {
  return `must be no more than ${length} characters`;
}

const DNS_LABEL_FORMAT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS_SUBDOMAIN_FORMAT = `${DNS_LABEL_FORMAT}(\\.${DNS_LABEL_FORMAT})*`;
const QUALIFIED_NAME_FORMAT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FORMAT = `(${QUALIFIED_NAME_FORMAT})?`;
const QUALIFIED_NAME_MESSAGE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

function fullMatch(format: string, value: string): boolean {
  return new RegExp(`^(?:${format})$`).test(value);
}

export function dnsSubdomainErrors(value: string): string[] {
  const errors = value.length > 253 ? [maxLengthError(253)] : [];
  if (!fullMatch(DNS_SUBDOMAIN_FORMAT, value)) {
    errors.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS_SUBDOMAIN_FORMAT,
        'example.com',
      ),
    );
  }
  return errors;
}

export function dnsLabelErrors(value: string): string[] {
  const errors = value.length > 63 ? [maxLengthError(63)] : [];
  if (!fullMatch(DNS_LABEL_FORMAT, value)) {
    errors.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        DNS_LABEL_FORMAT,
        'my-name',
        '123-abc',
      ),
    );
  }
  return errors;
}

function namePartErrors(name: string): string[] {
  const errors: string[] = [];
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > 63) errors.push(`name part ${maxLengthError(63)}`);
  if (!fullMatch(QUALIFIED_NAME_FORMAT, name)) {
    errors.push(
      `name part ${regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errors;
}

/** `validation.IsQualifiedName`: label keys, annotation keys, taint keys. */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2) {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const [first = '', second] = parts;
  const prefixErrors =
    second === undefined
      ? []
      : first === ''
        ? ['prefix part must be non-empty']
        : dnsSubdomainErrors(first).map((message) => `prefix part ${message}`);
  return [...prefixErrors, ...namePartErrors(second ?? first)];
}

/** `validation.IsValidLabelValue`. */
export function labelValueErrors(value: string): string[] {
  const errors = value.length > 63 ? [maxLengthError(63)] : [];
  if (!fullMatch(LABEL_VALUE_FORMAT, value)) {
    errors.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FORMAT,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errors;
}

/** One `Invalid` error per message, all on the same field and value. */
export function invalidEach(
  field: string,
  value: string,
  messages: readonly string[],
): FieldError[] {
  return messages.map((message) => invalid(field, quoted(value), message));
}

export function validateLabels(
  labels: Readonly<Record<string, string>>,
  field: string,
): FieldError[] {
  return Object.entries(labels).flatMap(([key, value]) => [
    ...invalidEach(field, key, qualifiedNameErrors(key)),
    ...invalidEach(field, value, labelValueErrors(value)),
  ]);
}

function validateName(descriptor: ResourceDescriptor, name: string): FieldError[] {
  if (name === '') return [required('metadata.name', 'name or generateName is required')];
  const check = descriptor.nameFormat === 'label' ? dnsLabelErrors : dnsSubdomainErrors;
  return invalidEach('metadata.name', name, check(name));
}

function validateNamespace(descriptor: ResourceDescriptor, namespace: string): FieldError[] {
  if (!descriptor.namespaced) return [];
  if (namespace === '') return [required('metadata.namespace')];
  return invalidEach('metadata.namespace', namespace, dnsLabelErrors(namespace));
}

/** `ValidateObjectMeta` for the resource's naming rules. */
export function validateObjectMeta(
  descriptor: ResourceDescriptor,
  object: JsonObject,
): FieldError[] {
  const annotationKeys = Object.keys(stringMapAt(object, 'metadata.annotations'));
  return [
    ...validateName(descriptor, nameOf(object)),
    ...validateNamespace(descriptor, namespaceOf(object)),
    ...validateLabels(stringMapAt(object, 'metadata.labels'), 'metadata.labels'),
    ...annotationKeys.flatMap((key) =>
      invalidEach('metadata.annotations', key, qualifiedNameErrors(key.toLowerCase())),
    ),
  ];
}

/**
 * `ValidateNoNewFinalizers`, which `ValidateObjectMetaUpdate` applies once the stored object has
 * a deletionTimestamp: its finalizers may be removed, none added. The new ones are listed sorted
 * and printed as Go's `%#v` of a `[]string`.
 */
export function validateObjectMetaUpdate(next: JsonObject, previous: JsonObject): FieldError[] {
  if (!isDeleting(previous)) return [];
  const before = new Set(finalizersOf(previous));
  const added = [...new Set(finalizersOf(next))].filter((f) => !before.has(f)).sort();
  if (added.length === 0) return [];
  return [
    forbidden(
      'metadata.finalizers',
      `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map(quoted).join(', ')}}`,
    ),
  ];
}
