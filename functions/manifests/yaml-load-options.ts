/**
 * How js-yaml reads manifests, both for their values and, when an error needs a line, for where
 * an object lies: the two reads must see the same documents.
 */
import { CORE_SCHEMA, type LoadOptions } from 'js-yaml';
import { DOCUMENT_BOUNDS } from './document-bounds.ts';

/**
 * The core schema leaves timestamps and similar as strings, as kubectl means them. js-yaml 4.3
 * bounds nesting itself; its type definitions do not list the option yet.
 */
export const YAML_LOAD_OPTIONS = {
  schema: CORE_SCHEMA,
  maxDepth: DOCUMENT_BOUNDS.maxDepth,
} as LoadOptions;
