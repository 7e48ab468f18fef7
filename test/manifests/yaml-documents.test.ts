/**
 * The YAML reader: js-yaml reads, and its values equal the `yaml` package's under the core
 * schema (the reader that words errors and finds lines must see the same document); lines are
 * found only when asked, in the document and list item they belong to.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { ManifestError } from '../../functions/manifests/manifest-error.ts';
import { readYamlDocuments } from '../../functions/manifests/yaml-documents.ts';
import { type ObjectText, objectText } from '../../functions/manifests/yaml-object-text.ts';

/** What the `yaml` package makes of the text, with positions: the reference. */
function reference(text: string): unknown[] {
  return parseAllDocuments(text).map((document) => document.toJS());
}

/** Some generated texts (a long empty key, say) are not YAML even to the writer's own reader. */
function isValid(text: string): boolean {
  return parseAllDocuments(text).every((document) => document.errors.length === 0);
}

/** The writer's own reader gives back what was written (it need not: see the property). */
function meansWhatWasWritten(text: string, written: unknown): boolean {
  try {
    return isDeepStrictEqual(reference(text), written);
  } catch {
    return false;
  }
}

function values(text: string): unknown[] {
  return readYamlDocuments(text, 'test.yaml').map((document) => document.value);
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

describe('reading YAML', () => {
  it('reads what kubectl writes with the values of the yaml package', () => {
    // Prepare
    const text = `${KUBECTL_POD}---\n# a second document\n${KUBECTL_POD}`;

    // Act
    const read = values(text);

    // Assess
    expect(read).toHaveLength(2);
    expect(read).toEqual(reference(text));
  });

  it('keeps timestamps, octal-looking and YAML 1.1 words as the core schema reads them', () => {
    // Prepare
    const text =
      'a: 2024-05-01T10:00:00Z\nb: 012\nc: yes\nd: on\ne: 0o17\nf: 0x1F\ng: ~\nh: .inf\n';

    // Act
    const [read] = values(text);

    // Assess
    expect(read).toEqual({
      a: '2024-05-01T10:00:00Z',
      b: 12,
      c: 'yes',
      d: 'on',
      e: 15,
      f: 31,
      g: null,
      h: Number.POSITIVE_INFINITY,
    });
  });

  it('finds the line of each document and of each item of a list, only when asked', () => {
    // Prepare
    const text = [
      '# leading comment',
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- kind: Pod',
      '  metadata:',
      '    name: a',
      '-   kind: Node',
      '    metadata: {name: b}',
      'metadata: {}',
      '---',
      '',
      'kind: Pod',
      '...',
      '---',
      '',
    ].join('\n');

    // Act
    const [list, pod, empty] = readYamlDocuments(text, 'test.yaml');

    // Assess
    expect([list?.lineOf([]), pod?.lineOf([])]).toEqual([2, 13]);
    expect(empty?.value).toBeNull();
    expect([0, 1].map((item) => list?.lineOf(['items', item]))).toEqual([5, 8]);
    expect(list?.lineOf(['items', 1, 'metadata', 'name'])).toBe(9);
    const slice = ({ start, end }: ObjectText) => text.slice(start, end);
    expect([0, 1].map((item) => objectText(text, 0, item)).map((o) => o && slice(o))).toEqual([
      'kind: Pod\n  metadata:\n    name: a\n',
      'kind: Node\n    metadata: {name: b}\n',
    ]);
    const second = objectText(text, 1);
    expect(second && slice(second)).toBe('kind: Pod\n');
  });

  it('names the line and column of a syntax error in the words of the yaml package', () => {
    // Prepare
    const text = 'kind: Pod\nmetadata:\n  name: a\nspec:\n\tcontainers: []\n';

    // Act
    const error = (() => {
      try {
        readYamlDocuments(text, 'broken.yaml');
      } catch (caught) {
        return caught;
      }
    })();

    // Assess
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).location).toEqual({ file: 'broken.yaml', line: 5 });
    expect((error as ManifestError).message).toMatch(
      /^broken\.yaml:5: invalid YAML: .*\(column \d+\)$/,
    );
  });

  describe('against the yaml package on generated documents', () => {
    const characters = [...'aZ09 -:#\'"\\|>{}[],.&*!%@`?~\té\n'];
    const text = fc.string({ unit: fc.constantFrom(...characters), maxLength: 40 });
    const scalar = fc.oneof(
      text,
      fc.integer(),
      // js-yaml reads `-0` as the integer 0 where `yaml` reads -0.0; no Kubernetes field tells them apart.
      fc.double({ noDefaultInfinity: false }).map((n) => (Object.is(n, -0) ? 0 : n)),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('true', 'null', '0x1F', '1e3', '-', '- a', 'a: b', 'a #b', "'", '', ' '),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        scalar,
        fc.array(tie('value'), { maxLength: 4 }),
        // Objects as a reader makes them: one of null prototype never equals what is read back,
        // and the property below would discard nearly every document.
        fc.dictionary(text, tie('value'), { maxKeys: 4, noNullPrototype: true }),
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
      blockQuote: fc.constantFrom(true, 'literal', 'folded', false) as fc.Arbitrary<
        boolean | 'literal' | 'folded'
      >,
      collectionStyle: fc.constantFrom('any', 'block', 'flow') as fc.Arbitrary<
        'any' | 'block' | 'flow'
      >,
    });
    const documents = fc.array(
      fc.dictionary(text, value, { minKeys: 1, maxKeys: 6, noNullPrototype: true }),
      {
        minLength: 1,
        maxLength: 3,
      },
    );

    it('reads every document as the positional reader does', () => {
      fc.assert(
        fc.property(documents, options, (objects, opts) => {
          // Prepare
          const yaml = objects.map((object) => stringify(object, opts)).join('---\n');
          fc.pre(isValid(yaml));
          // The writer has its own slips: a string ":\na" in a flow list comes back as a map
          // with an empty key, ":\n*a" as an alias to nothing. Only texts that mean what was
          // written say anything about a reader.
          fc.pre(meansWhatWasWritten(yaml, objects));

          // Act
          const read = values(yaml);

          // Assess
          expect(read).toEqual(reference(yaml));
        }),
        { numRuns: 400 },
      );
    });

    it('finds every item of a list at the line the positional reader gives it', () => {
      fc.assert(
        fc.property(
          fc.array(fc.dictionary(text, value, { minKeys: 1, maxKeys: 4 }), {
            minLength: 1,
            maxLength: 5,
          }),
          options,
          (items, opts) => {
            // Prepare
            const yaml = stringify(
              { apiVersion: 'v1', kind: 'List', items },
              { ...opts, collectionStyle: 'block' },
            );
            fc.pre(isValid(yaml));
            const [positional] = parseAllDocuments(yaml);
            const seq = positional?.get('items', true) as { items: { range: [number] }[] };
            const expected = seq.items.map(
              (item) => yaml.slice(0, item.range[0]).split('\n').length,
            );

            // Act
            const [document] = readYamlDocuments(yaml, 'list.yaml');

            // Assess
            expect(items.map((_, item) => document?.lineOf(['items', item]))).toEqual(expected);
          },
        ),
        { numRuns: 500 },
      );
    });
  });
});
