import { describe, expect, it } from 'vitest';
import { readDocuments } from '../../functions/manifests/documents.ts';
import { manifestErrorOf } from './manifest-fixtures.ts';

const LIST = `apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-1
    labels:
      app.kubernetes.io/name: web
  spec:
    containers:
    - name: app
      image: nginx
    - name: sidecar
      resources:
        requests:
          memory: 64Mi
- apiVersion: v1
  kind: Node
  metadata:
    name: ip-10-0-1-1
`;

/** The same list with one flow collection, which sends it through the general YAML parser. */
const LIST_FOR_GENERAL_PARSER = LIST.replace('image: nginx', 'args: [a, b]');

describe('reading manifest documents', () => {
  it('reads one object per document of a multi-document file, skipping empty documents', () => {
    // Prepare
    const text =
      '---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n---\n# nothing here\n---\n\napiVersion: apps/v1\nkind: DaemonSet\n';

    // Act
    const documents = readDocuments(text, 'cluster.yaml');

    // Assess
    expect(
      documents.map(({ kind, apiVersion, file, line }) => ({ kind, apiVersion, file, line })),
    ).toEqual([
      { kind: 'Pod', apiVersion: 'v1', file: 'cluster.yaml', line: 2 },
      { kind: 'DaemonSet', apiVersion: 'apps/v1', file: 'cluster.yaml', line: 10 },
    ]);
    expect(documents[0]?.object).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'a' },
    });
  });

  it.each([
    ['the fast reader', LIST],
    ['the general parser', LIST_FOR_GENERAL_PARSER],
  ])('unpacks a kind: List into its items, each with its own line (%s)', (_, text) => {
    // Act
    const documents = readDocuments(text, 'dump.yaml');

    // Assess
    expect(documents.map(({ kind, line }) => ({ kind, line }))).toEqual([
      { kind: 'Pod', line: 6 },
      { kind: 'Node', line: 20 },
    ]);
  });

  it('gives items of a typed list the kind and apiVersion of the list when they carry none', () => {
    // Prepare
    const text =
      'apiVersion: v1\nkind: PodList\nitems:\n- metadata:\n    name: a\n- metadata:\n    name: b\n';

    // Act
    const documents = readDocuments(text, 'pods.yaml');

    // Assess
    expect(documents.map(({ kind, apiVersion, line }) => ({ kind, apiVersion, line }))).toEqual([
      { kind: 'Pod', apiVersion: 'v1', line: 4 },
      { kind: 'Pod', apiVersion: 'v1', line: 6 },
    ]);
  });

  it.each([
    ['the fast reader', LIST],
    ['the general parser', LIST_FOR_GENERAL_PARSER],
  ])('finds the line of a nested field of a list item (%s)', (_, text) => {
    // Prepare
    const [pod] = readDocuments(text, 'dump.yaml');
    if (pod === undefined) throw new Error('no pod read');

    // Act
    const lines = {
      resources: pod.lineOf(['spec', 'containers', 1, 'resources']),
      memory: pod.lineOf(['spec', 'containers', 1, 'resources', 'requests', 'memory']),
      dottedLabel: pod.lineOf(['metadata', 'labels', 'app.kubernetes.io/name']),
      absentField: pod.lineOf(['spec', 'containers', 1, 'ports', 0, 'containerPort']),
      wholeObject: pod.lineOf([]),
    };

    // Assess
    expect(lines).toEqual({
      resources: 17,
      memory: 19,
      dottedLabel: 11,
      absentField: 16,
      wholeObject: 6,
    });
  });

  it('names the file and line of a YAML syntax error', () => {
    // Prepare
    const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a: b\nspec: {}\n';

    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'broken.yaml'));

    // Assess
    expect(error.location).toMatchObject({ file: 'broken.yaml', line: 4 });
    expect(error.message).toBe(
      'broken.yaml:4: invalid YAML: nested mappings are not allowed in compact mappings (column 9)',
    );
  });

  it.each([
    ['after a thousand documents', 1000],
    ['in one document larger than is read again', 0],
  ])('names the line of a YAML syntax error %s', (_, documents) => {
    // Prepare: the broken document is read again on its own, or not at all when too large
    const good = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: ok\n---\n'.repeat(documents);
    const padding = documents === 0 ? `# ${'x'.repeat(1100 * 1024)}\n` : '';
    const broken = `${padding}apiVersion: v1\nkind: Pod\nmetadata:\n  name: a: b\nspec: {}\n`;
    const line = documents * 5 + (documents === 0 ? 1 : 0) + 4;

    // Act
    const error = manifestErrorOf(() => readDocuments(good + broken, 'broken.yaml'));

    // Assess
    expect(error.location).toMatchObject({ file: 'broken.yaml', line });
    expect(error.message).toMatch(new RegExp(`^broken\\.yaml:${line}: invalid YAML: `));
  });

  it('reports a duplicate key, which YAML forbids, at its line', () => {
    // Prepare
    const text = 'apiVersion: v1\nkind: Pod\nkind: Node\n';

    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'twice.yaml'));

    // Assess
    expect(error.location).toMatchObject({ file: 'twice.yaml', line: 3 });
  });

  it.each([
    [
      'a document that is a list',
      '- a\n- b\n',
      'expected a Kubernetes object (a mapping), got a list',
    ],
    ['an object without a kind', 'apiVersion: v1\nmetadata: {}\n', 'kind: is required'],
    [
      'an object whose kind is not text',
      'apiVersion: v1\nkind: 3\n',
      'kind: expected a string, got 3',
    ],
  ])('rejects %s, naming file and line', (_, text, message) => {
    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'odd.yaml'));

    // Assess
    expect(error.message).toBe(`odd.yaml:1: ${message}`);
  });

  it('names the line of a list item that is not an object', () => {
    // Prepare
    const text = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n- just text\n';

    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'list.yaml'));

    // Assess
    expect(error.location).toMatchObject({ file: 'list.yaml', line: 6 });
  });
});
