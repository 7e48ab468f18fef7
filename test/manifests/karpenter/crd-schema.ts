/**
 * The field paths of a released CRD's `spec` (its openAPIV3Schema) and of a reader's zod schema,
 * in one notation: `spec.blockDeviceMappings[].ebs.iops`, `spec.tags{}` for a map's values.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import * as z from 'zod';

/** The parts of an OpenAPI v3 (or JSON) schema that name fields. */
export interface FieldSchema {
  readonly properties?: Readonly<Record<string, FieldSchema>>;
  readonly items?: FieldSchema;
  readonly additionalProperties?: FieldSchema | boolean;
  readonly anyOf?: readonly FieldSchema[];
  readonly oneOf?: readonly FieldSchema[];
  readonly allOf?: readonly FieldSchema[];
}

interface Crd {
  readonly spec: {
    readonly versions: readonly {
      readonly name: string;
      readonly schema: { readonly openAPIV3Schema: FieldSchema };
    }[];
  };
}

const CRDS = new URL('../../fixtures/public/karpenter-crds/', import.meta.url);

/** The `spec` schema of the CRD's v1 version, read from the vendored file. */
export function crdSpecSchema(file: string): FieldSchema {
  const crd = parse(readFileSync(new URL(file, CRDS), 'utf8')) as Crd;
  const v1 = crd.spec.versions.find((version) => version.name === 'v1');
  const spec = v1?.schema.openAPIV3Schema.properties?.spec;
  if (spec === undefined) throw new Error(`${file} has no v1 spec schema`);
  return spec;
}

/** The `spec` schema of a reader, as the documents it accepts (its input side). */
export function readerSpecSchema(schema: z.ZodType): FieldSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as FieldSchema;
  const spec = json.properties?.spec;
  if (spec === undefined) throw new Error('the reader has no spec');
  return spec;
}

function alternatives(schema: FieldSchema): readonly FieldSchema[] {
  return [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
}

/** The fields one alternative of a schema names, directly or through a list or a map. */
function ownFieldPaths(part: FieldSchema, path: string): string[] {
  const named = Object.entries(part.properties ?? {}).flatMap(([name, field]) => [
    `${path}.${name}`,
    ...fieldPaths(field, `${path}.${name}`),
  ]);
  const items = part.items === undefined ? [] : fieldPaths(part.items, `${path}[]`);
  const values =
    typeof part.additionalProperties === 'object'
      ? fieldPaths(part.additionalProperties, `${path}{}`)
      : [];
  return [...named, ...items, ...values];
}

/** Every named field under `schema`, through lists (`[]`) and maps (`{}`), sorted. */
export function fieldPaths(schema: FieldSchema, path = 'spec'): string[] {
  const paths = alternatives(schema).flatMap((part) => ownFieldPaths(part, path));
  return [...new Set(paths)].sort();
}

/**
 * The fields a document's `spec` sets, named by the CRD's schema (a map's keys are values, not
 * fields); a key the CRD lacks is returned too, so a sample cannot set a field by mistake.
 */
export function fieldsSet(
  value: unknown,
  schema: FieldSchema | undefined,
  path = 'spec',
): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => fieldsSet(item, schema?.items, `${path}[]`));
  }
  if (typeof value !== 'object' || value === null) return [];
  const map =
    typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  return Object.entries(value).flatMap(([key, item]) => {
    if (map !== undefined) return fieldsSet(item, map, `${path}{}`);
    const field = `${path}.${key}`;
    return [field, ...fieldsSet(item, schema?.properties?.[key], field)];
  });
}
