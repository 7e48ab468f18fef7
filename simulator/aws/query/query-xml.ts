/**
 * Writes an output in the SDK's shape as the query protocols' XML, by the operation's own
 * schema: the exact inverse of the SDK's XmlShapeDeserializer (@aws-sdk/core, protocols). A
 * member's element is its `xmlName` (else its member name); a list wraps each item in its
 * member's `xmlName` (`item` in EC2, `member` in IAM and STS) unless flattened; a map writes
 * `entry`/`key`/`value`. Timestamps are ISO-8601, blobs base64.
 */
import { NormalizedSchema } from '@smithy/core/schema';

type SchemaRef = Parameters<typeof NormalizedSchema.of>[0];

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function element(name: string, content: string): string {
  return `<${name}>${content}</${name}>`;
}

function scalarText(ns: NormalizedSchema, value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (ns.isTimestampSchema() && typeof value === 'number') return new Date(value).toISOString();
  return escapeXml(String(value));
}

function listXml(ns: NormalizedSchema, values: readonly unknown[], name: string): string {
  const member = ns.getValueSchema();
  const memberName = member.getMergedTraits().xmlName ?? 'member';
  const items = values.filter((v) => v != null);
  if (ns.getMergedTraits().xmlFlattened) {
    return items.map((item) => write(member, item, name)).join('');
  }
  return element(name, items.map((item) => write(member, item, memberName)).join(''));
}

function mapXml(ns: NormalizedSchema, value: Record<string, unknown>, name: string): string {
  const keyName = ns.getKeySchema().getMergedTraits().xmlName ?? 'key';
  const valueName = ns.getValueSchema().getMergedTraits().xmlName ?? 'value';
  const entries = Object.entries(value)
    .filter(([, v]) => v != null)
    .map(([k, v]) =>
      element('entry', element(keyName, escapeXml(k)) + write(ns.getValueSchema(), v, valueName)),
    );
  return element(name, entries.join(''));
}

/** The members of a structure, each as its element, in the schema's order. */
export function membersXml(schema: SchemaRef, value: unknown): string {
  const ns = NormalizedSchema.of(schema);
  if (!ns.isStructSchema() || typeof value !== 'object' || value === null) return '';
  const record = value as Record<string, unknown>;
  let xml = '';
  for (const [name, member] of ns.structIterator()) {
    const item = record[name];
    if (item != null) xml += write(member, item, member.getMemberTraits().xmlName ?? name);
  }
  return xml;
}

function write(ns: NormalizedSchema, value: unknown, name: string): string {
  if (ns.isListSchema() && Array.isArray(value)) return listXml(ns, value, name);
  if (ns.isMapSchema() && typeof value === 'object' && value !== null) {
    return mapXml(ns, value as Record<string, unknown>, name);
  }
  if (ns.isStructSchema()) return element(name, membersXml(ns, value));
  return element(name, scalarText(ns, value));
}
