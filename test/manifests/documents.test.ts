import { describe, expect, it } from 'vitest';
import { readDocuments } from '../../functions/manifests/documents.ts';
import { manifestErrorOf, POD_LIST_JSON } from './manifest-fixtures.ts';

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

/** A typed list whose items carry neither kind nor apiVersion. */
const POD_LIST_YAML =
  'apiVersion: v1\nkind: PodList\nitems:\n- metadata:\n    name: a\n- metadata:\n    name: b\n';

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

  it.each([
    { format: 'YAML', file: 'pods.yaml', text: POD_LIST_YAML, lines: [4, 6] },
    { format: 'JSON', file: 'pods.json', text: POD_LIST_JSON, lines: [4, 24] },
  ])(
    'gives items of a typed list the kind and apiVersion of the list when they carry none ($format)',
    ({ file, text, lines }) => {
      // Act
      const documents = readDocuments(text, file);

      // Assess
      expect(
        documents.map(({ kind, apiVersion, file, line }) => ({ kind, apiVersion, file, line })),
      ).toEqual(lines.map((line) => ({ kind: 'Pod', apiVersion: 'v1', file, line })));
    },
  );

  // The field the pod lacks is placed at its nearest ancestor present, the container.
  it.each([
    {
      reader: 'YAML, the fast reader',
      file: 'dump.yaml',
      text: LIST,
      container: 1,
      lines: { resources: 17, memory: 19, dottedLabel: 11, absentField: 16, wholeObject: 6 },
    },
    {
      reader: 'YAML, the general parser',
      file: 'dump.yaml',
      text: LIST_FOR_GENERAL_PARSER,
      container: 1,
      lines: { resources: 17, memory: 19, dottedLabel: 11, absentField: 16, wholeObject: 6 },
    },
    {
      reader: 'JSON',
      file: 'pods.json',
      text: POD_LIST_JSON,
      container: 0,
      lines: { resources: 15, memory: 17, dottedLabel: 8, absentField: 13, wholeObject: 4 },
    },
  ])(
    'finds the line of a nested field of a list item ($reader)',
    ({ file, text, container, lines }) => {
      // Prepare
      const [pod] = readDocuments(text, file);
      if (pod === undefined) throw new Error('no pod read');

      // Act
      const found = {
        resources: pod.lineOf(['spec', 'containers', container, 'resources']),
        memory: pod.lineOf(['spec', 'containers', container, 'resources', 'requests', 'memory']),
        dottedLabel: pod.lineOf(['metadata', 'labels', 'app.kubernetes.io/name']),
        absentField: pod.lineOf(['spec', 'containers', container, 'ports', 0, 'containerPort']),
        wholeObject: pod.lineOf([]),
      };

      // Assess
      expect(found).toEqual(lines);
    },
  );

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
    {
      name: 'a document that is a list',
      file: 'odd.yaml',
      text: '- a\n- b\n',
      line: 1,
      message: 'expected a Kubernetes object (a mapping), got a list',
    },
    {
      name: 'an object without a kind',
      file: 'odd.yaml',
      text: 'apiVersion: v1\nmetadata: {}\n',
      line: 1,
      message: 'kind: is required',
    },
    {
      name: 'an object whose kind is not text',
      file: 'odd.yaml',
      text: 'apiVersion: v1\nkind: 3\n',
      line: 1,
      message: 'kind: expected a string, got 3',
    },
    {
      name: 'a list item that is not an object',
      file: 'list.yaml',
      text: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n- just text\n',
      line: 6,
      message: 'expected a Kubernetes object (a mapping), got the scalar "just text"',
    },
    {
      name: 'a list item that is not an object',
      file: 'odd.json',
      text: '{"kind": "List", "apiVersion": "v1", "items": [\n{"kind": "Pod", "apiVersion": "v1"},\n"text"\n]}',
      line: 3,
      message: 'expected a Kubernetes object (a mapping), got the scalar "text"',
    },
    {
      name: 'an array element without a kind',
      file: 'odd.json',
      text: '[\n{"apiVersion": "v1"}\n]',
      line: 2,
      message: 'kind: is required',
    },
  ])('rejects $name, naming file and line ($file)', ({ file, text, line, message }) => {
    // Act
    const error = manifestErrorOf(() => readDocuments(text, file));

    // Assess
    expect(error.location).toMatchObject({ file, line });
    expect(error.message).toBe(`${file}:${line}: ${message}`);
  });
});
