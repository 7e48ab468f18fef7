/**
 * Public manifests ship Deployments and StatefulSets; `plan -f` reads what `kubectl get pods -o
 * yaml` shows once their controllers made the pods and nothing scheduled them yet. This turns
 * the workloads of a manifest into those pending pods, `copies` times their replicas, and keeps
 * its NodePools and EC2NodeClasses.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

const KEPT = new Set(['NodePool', 'EC2NodeClass']);

interface Workload {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly spec: {
    readonly replicas?: number;
    readonly template: { readonly metadata?: { labels?: object }; readonly spec: object };
  };
}

export interface PodsOptions {
  /** How many times each workload's replicas to make. */
  readonly copies?: number;
  /** The workload kinds to make pods of. */
  readonly kinds?: readonly string[];
}

function podsOf(workload: Workload, copies: number): object[] {
  const { metadata, spec } = workload;
  const count = (spec.replicas ?? 1) * copies;
  return Array.from({ length: count }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${metadata.name}-${i}`,
      namespace: metadata.namespace ?? 'default',
      uid: `${metadata.name}-${i}`,
      labels: spec.template.metadata?.labels ?? {},
    },
    spec: spec.template.spec,
  }));
}

/** The documents of the files: pools and classes as they are, workloads as pending pods. */
export function pendingPodsOf(files: readonly string[], options: PodsOptions = {}): object[] {
  const kinds = new Set(options.kinds ?? ['Deployment', 'StatefulSet']);
  const items: object[] = [];
  for (const file of files) {
    for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
      const object = document.toJS() as Workload | null;
      if (object === null) continue;
      if (KEPT.has(object.kind)) items.push(object);
      if (kinds.has(object.kind)) items.push(...podsOf(object, options.copies ?? 1));
    }
  }
  return items;
}

/** Writes `pendingPodsOf` as one `kind: List` file and returns its path. */
export function writePendingPods(files: readonly string[], options: PodsOptions = {}): string {
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-public-')), 'pods.yaml');
  const list = { apiVersion: 'v1', kind: 'List', items: pendingPodsOf(files, options) };
  writeFileSync(file, stringify(list, { aliasDuplicateObjects: false }));
  return file;
}

/** Writes the files' documents as one file, every workload's replicas times `copies`. */
export function writeScaledWorkloads(files: readonly string[], copies: number): string {
  const documents = files.flatMap((file) =>
    parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Workload | null),
  );
  const scaled = documents
    .filter((d) => d !== null)
    .map((d) =>
      'replicas' in (d.spec ?? {}) || d.kind === 'Deployment' || d.kind === 'StatefulSet'
        ? { ...d, spec: { ...d.spec, replicas: (d.spec.replicas ?? 1) * copies } }
        : d,
    );
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-public-')), 'workloads.yaml');
  writeFileSync(
    file,
    scaled.map((d) => stringify(d, { aliasDuplicateObjects: false })).join('---\n'),
  );
  return file;
}
