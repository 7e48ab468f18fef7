import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { readBlockYaml } from '../../functions/manifests/block-yaml.ts';

/** What the `yaml` package makes of the text: the reference the fast reader must match. */
function reference(text: string): unknown[] {
  return parseAllDocuments(text)
    .map((document) => document.toJS())
    .filter((value) => value !== null);
}

function fastValues(text: string): unknown[] | undefined {
  return readBlockYaml(text)?.map((document) => document.value);
}

const KUBECTL_POD = `apiVersion: v1
kind: Pod
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","kind":"Pod"}
    note: "true"
  creationTimestamp: "2024-05-01T10:00:00Z"
  labels:
    app: web
  name: web-1
  namespace: shop
  ownerReferences:
  - apiVersion: apps/v1
    blockOwnerDeletion: true
    controller: true
    kind: ReplicaSet
    name: web-5d4
    uid: 6f1c
spec:
  containers:
  - image: nginx:1.25
    name: app
    ports:
    - containerPort: 80
      protocol: TCP
    resources:
      requests:
        cpu: 250m
        memory: 64Mi
  securityContext: {}
  tolerations: []
status:
  conditions:
  - lastProbeTime: null
    lastTransitionTime: "2024-05-01T10:00:00Z"
    message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are
      available: 3 No preemption victims found for incoming pod.'
    reason: Unschedulable
    status: "False"
    type: PodScheduled
  phase: Pending
  qosClass: Burstable
`;

describe('block YAML reader', () => {
  it('reads what kubectl writes without falling back, with the values of the yaml package', () => {
    // Prepare
    const text = `${KUBECTL_POD}---\n# a second document\n${KUBECTL_POD}`;

    // Act
    const values = fastValues(text);

    // Assess
    expect(values).toBeDefined();
    expect(values).toEqual(reference(text));
  });

  it('reads typed plain scalars as the YAML 1.2 core schema does', () => {
    // Prepare
    const text = [
      'a: 1',
      'b: -2',
      'c: 0.5',
      'd: 1e3',
      'e: 0o17',
      'f: 0x1F',
      'g: .inf',
      'h: .nan',
      'i: ~',
      'j: null',
      'k: True',
      'l: false',
      'm: yes',
      'n: 0755',
      'o: 1.2.3',
      'p:',
      'q: 2024-05-01T10:00:00Z',
      'r: +7',
    ].join('\n');

    // Act
    const values = fastValues(text);

    // Assess
    expect(values).toBeDefined();
    expect(values).toEqual(reference(text));
  });

  it.each([
    ['folded plain scalars', 'a: one\n  two\n\n  three\nb: x'],
    ['folded single-quoted scalars', "a: 'it''s\n\n  long'\nb: x"],
    ['folded double-quoted scalars', 'a: "tab\\t\n  \\u00e9nd"\nb: x'],
    ['literal block scalars', 'a: |\n  one\n\n  two\n\n\nb: |-\n  three\n  # not a comment\nc: x'],
    [
      'comments everywhere',
      '# head\na: 1 # one\n# between\nb:   # open\n  - x # ex\n  # inner\n  - y\n',
    ],
    ['keys that need quotes', '"a: b": 1\n\'c #d\': 2\nconstructor: 3\n'],
    ['empty collections and nulls', 'a: {}\nb: []\nc:\nd: ~\ne:\n- \n- x\n'],
    ['sequences indented under their key', 'a:\n  - b: 1\n    c:\n    - d\n  - - e\n    - f\n'],
    ['a document that is indented', '  a: 1\n  b:\n    c: 2\n'],
  ])('matches the yaml package on %s', (_, text) => {
    // Act
    const values = fastValues(text);

    // Assess
    expect(values).toBeDefined();
    expect(values).toEqual(reference(text));
  });

  it.each([
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['tags', 'a: !!str 1\n'],
    ['flow collections', 'a: [1, 2]\n'],
    ['folded block scalars', 'a: >\n  one\n  two\n'],
    ['keep-chomped block scalars', 'a: |+\n  one\n\n'],
    ['explicit block indentation', 'a: |2\n   one\n'],
    ['tabs', 'a:\tb\n'],
    ['carriage returns', 'a: b\r\nc: d\r\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['numeric keys', '1: a\n'],
    ['merge keys', '<<: {}\n'],
    ['directives', '%YAML 1.2\n---\na: 1\n'],
    ['document end markers', 'a: 1\n...\n'],
    ['a scalar document', 'just text\n'],
    ['a sequence document', '- a\n- b\n'],
    ['bad indentation', 'a:\n    b: 1\n  c: 2\n'],
    ['an unclosed quote', "a: 'open\n"],
  ])('leaves %s to the general parser', (_, text) => {
    // Act
    const values = fastValues(text);

    // Assess
    expect(values).toBeUndefined();
  });

  it('records the span and line of every item of a top-level items list', () => {
    // Prepare
    const text =
      'apiVersion: v1\nkind: List\nitems:\n- kind: Pod\n  apiVersion: v1\n\n-   kind: Node\n    apiVersion: v1\n';

    // Act
    const [document] = readBlockYaml(text) ?? [];

    // Assess
    expect(document?.span).toEqual({ start: 0, end: text.length, line: 1 });
    expect(document?.items.map((span) => span.line)).toEqual([4, 7]);
    expect(document?.items.map((span) => text.slice(span.start, span.start + 9))).toEqual([
      'kind: Pod',
      'kind: Nod',
    ]);
  });

  describe('against the yaml package on generated documents', () => {
    const characters = [...'aZ09 -:#\'"\\|>{}[],.&*!%@`?~\té\n'];
    const text = fc.string({ unit: fc.constantFrom(...characters), maxLength: 40 });
    const scalar = fc.oneof(
      text,
      fc.integer(),
      fc.double({ noDefaultInfinity: false }),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('true', 'null', '0x1F', '1e3', '-', '- a', 'a: b', 'a #b', "'", '', ' '),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        scalar,
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(text, tie('value'), { maxKeys: 4 }),
      ),
    }));
    const options = fc.record({
      lineWidth: fc.integer({ min: 20, max: 80 }),
      minContentWidth: fc.constantFrom(0, 20),
      indentSeq: fc.boolean(),
      indent: fc.constantFrom(2, 4),
      defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE') as fc.Arbitrary<
        'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE'
      >,
      defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE') as fc.Arbitrary<
        null | 'PLAIN' | 'QUOTE_DOUBLE'
      >,
      blockQuote: fc.constantFrom(true, 'literal', false) as fc.Arbitrary<boolean | 'literal'>,
    });

    const document = fc.dictionary(text, value, { minKeys: 1, maxKeys: 6 });

    it('gives the same values whenever it does not fall back', () => {
      let read = 0;
      fc.assert(
        fc.property(document, options, (object, opts) => {
          // Prepare
          const yaml = stringify(object, opts);

          // Act
          const values = fastValues(yaml);

          // Assess
          if (values === undefined) return;
          read++;
          expect(values).toEqual(reference(yaml));
        }),
        { numRuns: 1500 },
      );
      // Most generated documents stay in the subset (about 60%); falling back on all would prove nothing.
      expect(read).toBeGreaterThan(500);
    });

    const edit = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('insert', 'delete', 'indent', 'dedent'),
      character: fc.constantFrom(...' -:#\'"|\n{}[]a'),
    });
    type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

    function applyEdit(yaml: string, { at, kind, character }: Edit): string {
      const offset = at % (yaml.length + 1);
      const lineStart = yaml.lastIndexOf('\n', offset - 1) + 1;
      if (kind === 'insert') return yaml.slice(0, offset) + character + yaml.slice(offset);
      if (kind === 'delete') return yaml.slice(0, offset) + yaml.slice(offset + 1);
      if (kind === 'indent') return `${yaml.slice(0, lineStart)} ${yaml.slice(lineStart)}`;
      return yaml[lineStart] === ' ' ? yaml.slice(0, lineStart) + yaml.slice(lineStart + 1) : yaml;
    }

    it('accepts only damaged documents that the yaml package reads without error, and reads them alike', () => {
      const base = fc.oneof(
        fc.constant(KUBECTL_POD),
        fc
          .tuple(document, fc.integer({ min: 20, max: 60 }), fc.boolean())
          .map(([object, lineWidth, indentSeq]) => stringify(object, { lineWidth, indentSeq })),
      );
      fc.assert(
        fc.property(base, fc.array(edit, { minLength: 1, maxLength: 3 }), (yaml, edits) => {
          // Prepare
          const damaged = edits.reduce(applyEdit, yaml);

          // Act
          const values = fastValues(damaged);

          // Assess
          if (values === undefined) return;
          const errors = parseAllDocuments(damaged).flatMap((d) => d.errors.map((e) => e.code));
          expect(errors).toEqual([]);
          expect(values).toEqual(reference(damaged));
        }),
        { numRuns: 3000 },
      );
    });
  });
});
