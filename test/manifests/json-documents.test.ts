import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { readDocuments } from '../../functions/manifests/documents.ts';
import { loadCluster } from '../../functions/manifests/load-cluster.ts';
import { aMinimalNodePool } from '../support/karpenter-documents.ts';
import { manifestErrorOf, POD_LIST_JSON } from './manifest-fixtures.ts';

function pod(name: string, memory: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      labels: { app: 'web', 'app.kubernetes.io/name': name },
      annotations: { note: 'brackets } ] { [ and "quotes" \\ in a string' },
    },
    spec: {
      containers: [
        { name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '250m', memory } } },
      ],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
      nodeSelector: { 'kubernetes.io/arch': 'arm64' },
    },
    status: { phase: 'Pending' },
  };
}

/** What `kubectl get pods,nodes,nodepools -o json` prints, more or less. */
const CLUSTER = {
  apiVersion: 'v1',
  items: [
    pod('web-1', '128Mi'),
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'ip-10-0-1-1', labels: { 'topology.kubernetes.io/zone': 'us-east-1a' } },
      spec: { taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }] },
      status: {
        capacity: { cpu: '4', memory: '16Gi', pods: '110' },
        allocatable: { cpu: '3920m', memory: '15Gi', pods: '110' },
      },
    },
    aMinimalNodePool(),
    pod('web-2', '64Mi'),
  ],
  kind: 'List',
  metadata: { resourceVersion: '' },
};

describe('reading JSON manifests', () => {
  it('reads a JSON list into the same objects as the same content in YAML', () => {
    // Prepare
    const json = JSON.stringify(CLUSTER, null, 4);
    const yaml = stringify(CLUSTER);

    // Act
    const fromJson = loadCluster([{ file: 'cluster.json', text: json }]);
    const fromYaml = loadCluster([{ file: 'cluster.yaml', text: yaml }]);

    // Assess
    expect(fromJson).toEqual(fromYaml);
    expect(fromJson.pods.map((item) => item.uid)).toEqual(['shop/web-1', 'shop/web-2']);
    expect(fromJson.nodes.map((item) => item.name)).toEqual(['ip-10-0-1-1']);
    expect(fromJson.nodePools).toHaveLength(1);
  });

  it('names file, line and field of a malformed quantity', () => {
    // Act
    const error = manifestErrorOf(() => loadCluster([{ file: 'pods.json', text: POD_LIST_JSON }]));

    // Assess
    expect(error.message).toBe(
      'pods.json:17: spec.containers[0].resources.requests.memory: quantity "128 MB" is not a valid Kubernetes quantity',
    );
  });

  it('finds lines after strings holding brackets, quotes and an `items` key of their own', () => {
    // Prepare
    const text = JSON.stringify(CLUSTER, null, 4).replace('"64Mi"', '"64 MB"');
    const expected = text.slice(0, text.indexOf('"64 MB"')).split('\n').length;

    // Act
    const error = manifestErrorOf(() => loadCluster([{ file: 'cluster.json', text }]));

    // Assess
    expect(error.location).toEqual({
      file: 'cluster.json',
      line: expected,
      path: 'spec.containers[0].resources.requests.memory',
    });
  });

  it('reads a top-level array of objects, each element a document and a list unpacked', () => {
    // Prepare
    const text = [
      '[',
      '  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}},',
      '  null,',
      '  {',
      '    "apiVersion": "v1",',
      '    "kind": "PodList",',
      '    "items": [',
      '      {"metadata": {"name": "a"}},',
      '      {"metadata": {"name": "b"}}',
      '    ]',
      '  }',
      ']',
    ].join('\n');

    // Act
    const documents = readDocuments(text, 'mixed.json');

    // Assess
    expect(documents.map(({ kind, line }) => ({ kind, line }))).toEqual([
      { kind: 'Node', line: 2 },
      { kind: 'Pod', line: 8 },
      { kind: 'Pod', line: 9 },
    ]);
    expect(documents[2]?.object).toEqual({ metadata: { name: 'b' } });
  });

  it('reads a single object, starting at the line of its brace', () => {
    // Prepare
    const text =
      '\n\n{\n  "apiVersion": "v1",\n  "kind": "Namespace",\n  "metadata": {"name": "db"}\n}\n';

    // Act
    const documents = readDocuments(text, 'namespace.json');

    // Assess
    expect(documents.map(({ kind, line }) => ({ kind, line }))).toEqual([
      { kind: 'Namespace', line: 3 },
    ]);
    expect(documents[0]?.object).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'db' },
    });
  });

  it('places errors in minified JSON and after a byte order mark', () => {
    // Prepare
    const minified = JSON.stringify(JSON.parse(POD_LIST_JSON));

    // Act
    const error = manifestErrorOf(() =>
      loadCluster([{ file: 'pods.json', text: `\ufeff${minified}` }]),
    );

    // Assess
    expect(error.location).toMatchObject({ file: 'pods.json', line: 1 });
  });

  it('keeps the last of duplicate keys, as JSON.parse does', () => {
    // Act
    const [document] = readDocuments(
      '{"apiVersion": "v1", "kind": "Node", "kind": "Pod"}',
      'x.json',
    );

    // Assess
    expect(document?.kind).toBe('Pod');
  });

  it.each([
    [
      'a value after the last field',
      '{\n  "kind": "Pod",\n  "a": 1 2\n}\n',
      3,
      "expected ',' or '}' after property value (column 10)",
    ],
    [
      'a misspelt literal',
      '{\n  "kind": "Pod",\n  "a": tru\n}\n',
      3,
      "unexpected token 'tru' (column 8)",
    ],
    [
      'a trailing comma in an array',
      '[\n  {"kind": "Pod"},\n  {"kind": "Node"},\n]\n',
      4,
      "unexpected token ']' (column 1)",
    ],
    [
      'a text cut short',
      '{\n  "kind": "Pod",\n  "metadata": {\n    "name": "a"\n',
      4,
      "expected ',' or '}' after property value (column 16)",
    ],
    ['an unquoted key', '\n{kind: Pod}\n', 2, 'expected double-quoted property name (column 2)'],
    [
      'two objects one after the other',
      '{"kind": "Pod"}\n{"kind": "Node"}\n',
      2,
      'unexpected non-whitespace character after JSON (column 1)',
    ],
  ])('names the line of invalid JSON: %s', (_, text, line, reason) => {
    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'broken.json'));

    // Assess
    expect(error.location).toEqual({ file: 'broken.json', line });
    expect(error.message).toBe(`broken.json:${line}: invalid JSON: ${reason}`);
  });

  it('loads a 20,000-pod JSON dump (a smoke check, not a timing)', () => {
    // Prepare
    const items = Array.from({ length: 20_000 }, (_, index) => pod(`web-${index}`, '64Mi'));
    const text = JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: {} }, null, 4);

    // Act
    const cluster = loadCluster([{ file: 'dump.json', text }]);

    // Assess
    expect(cluster.pods).toHaveLength(20_000);
  });
});
