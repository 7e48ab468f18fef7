/**
 * Fuzzing the `-f` readers (`plan`, `disruption`, `simulate`, `pools apply`, `--limits`): any
 * text either reads or is refused with a ManifestError naming the file and what is wrong, never
 * another exception; in process for the count, and a few cases through the built binary.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { readDocuments } from '../../functions/manifests/documents.ts';
import { loadCluster } from '../../functions/manifests/load-cluster.ts';
import { parseLocated } from '../../functions/manifests/locate-error.ts';
import { ManifestError } from '../../functions/manifests/manifest-error.ts';
import { parseClusterLimits } from '../../functions/manifests/nodesmith/cluster-limits.ts';
import { runCli } from '../support/cli.ts';
import { CLUSTER_LIMITS, SHOP_NODE_CLASS, SHOP_NODE_POOL } from '../support/karpenter-documents.ts';
import { anyText, damaged, FUZZ, FUZZ_TIMEOUT, hostileDocument, mutated } from './fuzz-support.ts';

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  labels: {app: web}
spec:
  containers:
  - name: app
    image: nginx
    resources:
      requests: {cpu: 250m, memory: 512Mi}
  tolerations:
  - {key: example.com/special, operator: Exists}
`;

const BASES = [SHOP_NODE_POOL, SHOP_NODE_CLASS, CLUSTER_LIMITS, POD];
const LIST = `apiVersion: v1\nkind: List\nitems:\n${BASES.map((b) => b.replace(/^/gm, '  ').replace(/^ {2}apiVersion/, '- apiVersion')).join('')}`;

/** Texts a reader may be given: noise, hostile documents, damaged and mutated real ones. */
const texts = fc.oneof(
  anyText,
  hostileDocument,
  ...[...BASES, LIST].map(damaged),
  ...BASES.map((base) => mutated(load(base)).map((value) => JSON.stringify(value) ?? '')),
  fc.array(fc.constantFrom(...BASES), { maxLength: 4 }).map((docs) => docs.join('---\n')),
);

/** Everything the `-f` and `--limits` readers do with a file's text. */
function readAll(text: string, file: string): void {
  loadCluster([{ file, text }]);
  for (const document of readDocuments(text, file)) {
    if (document.kind === 'ClusterLimits') parseLocated(document, parseClusterLimits);
  }
}

function expectNamedRefusal(error: unknown, file: string): void {
  if (!(error instanceof ManifestError)) throw error;
  expect(error.location.file).toBe(file);
  expect(error.detail.trim()).not.toBe('');
  expect(error.message).not.toMatch(/undefined|\[object Object\]|call stack/i);
}

describe('fuzzing the -f readers', () => {
  it('reads any text or refuses it naming the file and what is wrong', {
    timeout: FUZZ_TIMEOUT,
  }, () => {
    fc.assert(
      fc.property(texts, (text) => {
        try {
          readAll(text, 'fuzz.yaml');
        } catch (error) {
          expectNamedRefusal(error, 'fuzz.yaml');
        }
      }),
      FUZZ,
    );
  });

  it('answers through the built binary with exit 0, or 2 and one line naming the file', {
    timeout: FUZZ_TIMEOUT,
  }, async () => {
    // A process start costs seconds: a few cases, one in 500 of the count.
    const cases = Math.max(1, Math.min(20, Math.round((FUZZ.numRuns ?? 0) / 500)));
    const dir = mkdtempSync(join(tmpdir(), 'nodesmith-fuzz-'));
    const samples = fc.sample(fc.oneof(hostileDocument, ...BASES.map(damaged)), {
      numRuns: cases,
      ...(FUZZ.seed === undefined ? {} : { seed: FUZZ.seed }),
    });
    for (const [index, text] of samples.entries()) {
      const file = join(dir, `case-${index}.yaml`);
      writeFileSync(file, text);
      const result = await runCli(['plan', '-f', file, '-o', 'json']);
      expect([0, 2]).toContain(result.status);
      if (result.status === 2)
        expect(result.stderr).toMatch(new RegExp(`^nodesmith: ${file}.+\\n$`));
      else expect(() => JSON.parse(result.stdout)).not.toThrow();
    }
  });
});
