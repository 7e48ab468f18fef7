/** Reading and stamping `metadata` on stored objects. */

import { randomUUID } from 'node:crypto';
import { arrayAt, childObject, type JsonObject, stringAt, stringMapAt } from './json.ts';

export function metadataOf(object: JsonObject): JsonObject {
  return childObject(object, 'metadata');
}

export function nameOf(object: JsonObject): string {
  return stringAt(object, 'metadata.name') ?? '';
}

export function namespaceOf(object: JsonObject): string {
  return stringAt(object, 'metadata.namespace') ?? '';
}

export function resourceVersionOf(object: JsonObject): string {
  return stringAt(object, 'metadata.resourceVersion') ?? '';
}

export function uidOf(object: JsonObject): string {
  return stringAt(object, 'metadata.uid') ?? '';
}

export function labelsOf(object: JsonObject): Record<string, string> {
  return stringMapAt(object, 'metadata.labels');
}

export function finalizersOf(object: JsonObject): string[] {
  return arrayAt(object, 'metadata.finalizers').filter((f): f is string => typeof f === 'string');
}

export function isDeleting(object: JsonObject): boolean {
  return stringAt(object, 'metadata.deletionTimestamp') !== undefined;
}

/** RFC 3339 at second precision, the form `metav1.Time` serialises to. */
export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** The system fields the server owns: set on create, carried unchanged across updates. */
export function stampCreated(object: JsonObject, now: Date, tracksGeneration: boolean): void {
  const metadata = metadataOf(object);
  metadata.uid ??= randomUUID();
  metadata.creationTimestamp ??= formatTimestamp(now);
  if (tracksGeneration) metadata.generation ??= 1;
}

const SYSTEM_FIELDS = [
  'uid',
  'creationTimestamp',
  'generation',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
] as const;

/** An update cannot change what the server owns; the stored values win. */
export function carrySystemFields(next: JsonObject, previous: JsonObject): void {
  const target = metadataOf(next);
  const source = metadataOf(previous);
  for (const field of SYSTEM_FIELDS) {
    const value = source[field];
    if (value === undefined) delete target[field];
    else target[field] = value;
  }
}

// apimachinery's names.SimpleNameGenerator alphabet: no vowels, no look-alike digits.
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `metadata.generateName` plus five random characters, as the server does it. */
export function generatedName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i += 1) {
    suffix += NAME_ALPHABET[Math.floor(Math.random() * NAME_ALPHABET.length)] ?? 'x';
  }
  return `${prefix}${suffix}`;
}
