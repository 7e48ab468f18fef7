/**
 * Reads a query-protocol request body (`Action=CreateFleet&Version=…&LaunchTemplateConfigs.1.…`)
 * into the SDK's input shape, by the operation's own schema: the exact inverse of the SDK's
 * QueryShapeSerializer (@aws-sdk/core, protocols). EC2 names each member by its `ec2QueryName`
 * (else the capitalised member name) and flattens every list (`Filter.1.Value.1`); the AWS query
 * protocol of IAM and STS names members as they are and wraps lists in `member`
 * (`Tags.member.1.Key`), an empty list being the bare key.
 */
import { NormalizedSchema } from '@smithy/core/schema';

/** A schema or a reference to one, as the SDK's schemas hold them. */
export type SchemaRef = Parameters<typeof NormalizedSchema.of>[0];

export interface QueryDialect {
  /** EC2's: `ec2QueryName`, capitalised keys, flattened lists. */
  readonly ec2: boolean;
}

/** The parameters as a tree: `A.1.B=x` becomes `{ A: { 1: { B: 'x' } } }`. */
interface ParamTree {
  [key: string]: ParamNode;
}
type ParamNode = string | ParamTree;

function paramTree(params: URLSearchParams): ParamTree {
  const root: ParamTree = {};
  for (const [key, value] of params) {
    const path = key.split('.');
    let node = root;
    for (const [index, part] of path.entries()) {
      if (index === path.length - 1) {
        if (node[part] === undefined) node[part] = value;
        break;
      }
      const next = node[part];
      const child: ParamTree = typeof next === 'object' ? next : {};
      node[part] = child;
      node = child;
    }
  }
  return root;
}

function memberKey(
  name: string,
  traits: { xmlName?: string; ec2QueryName?: string },
  dialect: QueryDialect,
  capitalise: boolean,
): string {
  if (dialect.ec2 && traits.ec2QueryName !== undefined) return traits.ec2QueryName;
  const key = traits.xmlName ?? name;
  return dialect.ec2 && capitalise ? key[0]?.toUpperCase() + key.slice(1) : key;
}

/** The numbered children `1`, `2`, … in order. */
function numbered(node: ParamNode | undefined): ParamNode[] {
  if (typeof node !== 'object') return [];
  return Object.keys(node)
    .filter((key) => /^\d+$/.test(key))
    .sort((a, b) => Number(a) - Number(b))
    .map((key) => node[key] as ParamNode);
}

function readScalar(ns: NormalizedSchema, text: string): unknown {
  if (ns.isBooleanSchema()) return text === 'true';
  if (ns.isNumericSchema()) return Number(text);
  if (ns.isTimestampSchema()) {
    return /^\d+(\.\d+)?$/.test(text) ? new Date(Number(text) * 1000) : new Date(text);
  }
  if (ns.isBlobSchema()) return new Uint8Array(Buffer.from(text, 'base64'));
  return text;
}

function readList(ns: NormalizedSchema, node: ParamNode, dialect: QueryDialect): unknown[] {
  const member = ns.getValueSchema();
  const flat = dialect.ec2 || Boolean(ns.getMergedTraits().xmlFlattened);
  const items = flat
    ? numbered(node)
    : numbered(
        typeof node === 'object'
          ? node[memberKey('member', member.getMergedTraits(), dialect, false)]
          : undefined,
      );
  return items.map((item) => read(member, item, dialect));
}

function readMap(
  ns: NormalizedSchema,
  node: ParamNode,
  dialect: QueryDialect,
): Record<string, unknown> {
  const flat = Boolean(ns.getMergedTraits().xmlFlattened);
  const entries = flat
    ? numbered(node)
    : numbered(typeof node === 'object' ? node.entry : undefined);
  const keyName = memberKey('key', ns.getKeySchema().getMergedTraits(), dialect, false);
  const valueName = memberKey('value', ns.getValueSchema().getMergedTraits(), dialect, false);
  const out: Record<string, unknown> = {};
  for (const entry of entries) {
    if (typeof entry !== 'object' || typeof entry[keyName] !== 'string') continue;
    const value = entry[valueName];
    if (value !== undefined) out[entry[keyName]] = read(ns.getValueSchema(), value, dialect);
  }
  return out;
}

function readStruct(
  ns: NormalizedSchema,
  node: ParamNode,
  dialect: QueryDialect,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof node !== 'object') return out;
  for (const [name, member] of ns.structIterator()) {
    const value = node[memberKey(name, member.getMergedTraits(), dialect, true)];
    if (value !== undefined) out[name] = read(member, value, dialect);
  }
  return out;
}

function read(ns: NormalizedSchema, node: ParamNode, dialect: QueryDialect): unknown {
  if (ns.isListSchema()) return readList(ns, node, dialect);
  if (ns.isMapSchema()) return readMap(ns, node, dialect);
  if (ns.isStructSchema()) return readStruct(ns, node, dialect);
  return typeof node === 'string' ? readScalar(ns, node) : undefined;
}

/** The input `schema` describes, read from the request's parameters (`Action` and `Version` aside). */
export function readQueryInput(
  schema: SchemaRef,
  params: URLSearchParams,
  dialect: QueryDialect,
): Record<string, unknown> {
  return readStruct(NormalizedSchema.of(schema), paramTree(params), dialect);
}
