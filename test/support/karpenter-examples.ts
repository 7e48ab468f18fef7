/**
 * Karpenter v1.14.1's own examples (aws/karpenter-provider-aws `examples/`, vendored unchanged),
 * made ready as a user makes them: `${CLUSTER_NAME}` filled as the repository's
 * `examples/README.md` fills it with `envsubst`, and a workload scaled up (most hold
 * `replicas: 0`) as `kubectl scale` would.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const EXAMPLES = fileURLToPath(
  new URL('../fixtures/public/karpenter-provider-aws/examples/', import.meta.url),
);

/** The cluster the examples are filled in for. */
export const EXAMPLE_CLUSTER = 'shop';

/** The file names under `examples/v1`: NodePools with their EC2NodeClasses. */
export const POOL_EXAMPLES: readonly string[] = readdirSync(join(EXAMPLES, 'v1')).sort();

/** The file names under `examples/workloads`. */
export const WORKLOAD_EXAMPLES: readonly string[] = readdirSync(join(EXAMPLES, 'workloads')).sort();

/** A pool example Nodesmith refuses: the field it names, what it says, and why. */
export interface RefusedExample {
  readonly example: string;
  readonly why: string;
  readonly field: string;
  /** What the error says after the line and the field. */
  readonly error: string;
}

export const REFUSED_POOL_EXAMPLES: readonly RefusedExample[] = [
  {
    example: 'windows-custom-userdata.yaml',
    why: "a versioned nodeClassRef.group, against the CRD's pattern ^[^/]*$ (karpenter.sh_nodepools.yaml)",
    field: 'spec.template.spec.nodeClassRef.group',
    error: 'group is an API group such as karpenter.k8s.aws, without a version or "/"',
  },
];

/** The pool examples Nodesmith takes: all but the refused. */
export const ACCEPTED_POOL_EXAMPLES: readonly string[] = POOL_EXAMPLES.filter(
  (name) => !REFUSED_POOL_EXAMPLES.some((refused) => refused.example === name),
);

/** A pool example's text with `${CLUSTER_NAME}` filled in, as `envsubst` would. */
export function poolExample(name: string): string {
  const text = readFileSync(join(EXAMPLES, 'v1', name), 'utf8');
  return text.replace(/\$\{CLUSTER_NAME\}/g, EXAMPLE_CLUSTER);
}

/** A workload example's text, its Deployments scaled to `replicas` as `kubectl scale` would. */
export function workloadExample(name: string, replicas?: number): string {
  const text = readFileSync(join(EXAMPLES, 'workloads', name), 'utf8');
  if (replicas === undefined) return text;
  const documents = parseAllDocuments(text);
  for (const document of documents) {
    if (document.get('kind') === 'Deployment') document.setIn(['spec', 'replicas'], replicas);
  }
  return documents.map((document) => document.toString()).join('');
}

/** Writes `text` to a fresh temporary directory as `name` and returns the file's path. */
export function writeExample(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-examples-')), name);
  writeFileSync(file, text);
  return file;
}

export interface ExampleDocument {
  readonly kind: string;
  readonly name: string;
  /** The document as its own YAML text, comments included, as `kubectl apply` sends each. */
  readonly text: string;
  /** Its `spec`, as parsed. */
  readonly spec: Readonly<Record<string, unknown>>;
}

/** The documents of a multi-document file, each with its kind and name. */
export function documentsOf(text: string): ExampleDocument[] {
  return parseAllDocuments(text)
    .filter((document) => document.contents !== null)
    .map((document) => {
      const { kind, metadata, spec } = document.toJS() as {
        kind: string;
        metadata: { name: string };
        spec: Record<string, unknown>;
      };
      return { kind, name: metadata.name, text: document.toString(), spec };
    });
}
