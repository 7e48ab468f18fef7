/**
 * Hostile documents are refused by every reader before anything walks them: alias bombs, deep
 * nesting, keys that name a prototype, and files over the stated bounds. Each refusal names the
 * file, the line and the field.
 */
import { describe, expect, it } from 'vitest';
import {
  checkBounds,
  DOCUMENT_BOUNDS,
  newBoundsBudget,
} from '../../functions/manifests/document-bounds.ts';
import { readDocuments } from '../../functions/manifests/documents.ts';
import { aliasChain, nested } from '../support/hostile-documents.ts';
import { manifestErrorOf } from './manifest-fixtures.ts';

const POOL_HEAD = 'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\n';

describe('document bounds', () => {
  it('refuses a kilobyte nine-level alias chain in a NodePool, naming the file, line and field', () => {
    // Prepare
    const text = aliasChain(9);

    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'pool.yaml'));

    // Assess
    expect(text.length).toBeLessThan(1024);
    expect(error.location.file).toBe('pool.yaml');
    // a0 to a4 repeat 66,429 nodes together; a5, on line 11, passes the bound on its own
    expect(error.location.path).toMatch(/^metadata\.labels\.a5\[/);
    expect(error.location.line).toBe(11);
    expect(error.detail).toContain(`aliases repeat more than ${DOCUMENT_BOUNDS.maxAliasedNodes}`);
  });

  it('refuses the same chain in an EC2NodeClass and in a List item', () => {
    // Prepare
    const nodeClass = aliasChain(9, 'EC2NodeClass', 'karpenter.k8s.aws/v1');
    const item = aliasChain(9)
      .replace(/^/gm, '  ')
      .replace(/^ {2}apiVersion/, '- apiVersion');
    const list = `apiVersion: v1\nkind: List\nitems:\n${item}`;

    // Act
    const classError = manifestErrorOf(() => readDocuments(nodeClass, 'class.yaml'));
    const listError = manifestErrorOf(() => readDocuments(list, 'dump.yaml'));

    // Assess
    expect(classError.detail).toContain('aliases repeat');
    expect(listError.detail).toContain('aliases repeat');
    // The item starts three lines down the list, so its a5 is on line 14
    expect(listError.location.path).toMatch(/^metadata\.labels\.a5\[/);
    expect(listError.location.line).toBe(14);
  });

  it('reads anchors and aliases that repeat little, as hand-written files use them', () => {
    // Prepare
    const text = `${POOL_HEAD}  labels: &labels {team: shop}\n  annotations: *labels\n`;

    // Act
    const [document] = readDocuments(text, 'pool.yaml');

    // Assess
    expect(document?.object.metadata).toEqual({
      name: 'default',
      labels: { team: 'shop' },
      annotations: { team: 'shop' },
    });
  });

  it.each([
    ['YAML flow', `${POOL_HEAD}  labels:\n    x: ${nested('[', ']', 5000)}\n`, 6],
    ['YAML flow mappings', `${POOL_HEAD}  labels:\n    x: ${nested('{a: ', '}', 5000)}\n`, 6],
    [
      'YAML blocks',
      `${POOL_HEAD}  labels:\n    x:\n${Array.from({ length: 200 }, (_, i) => `${' '.repeat(6 + 2 * i)}- a:\n`).join('')}`,
      undefined,
    ],
    [
      'JSON',
      `{"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default",\n"labels":{"x":${nested('[', ']', 5000)}}}}`,
      2,
    ],
  ])('refuses 5,000 levels of %s nesting in metadata with the line and field', (_, text, line) => {
    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'pool'));

    // Assess
    expect(error.detail).toContain(`nested deeper than ${DOCUMENT_BOUNDS.maxDepth} levels`);
    expect(error.location.file).toBe('pool');
    expect(error.location.path).toMatch(/^metadata\.labels\.x/);
    if (line !== undefined) expect(error.location.line).toBe(line);
    else expect(error.location.line).toBeGreaterThan(6);
  });

  it('reads nesting up to the bound', () => {
    // Prepare: the document is level 1, metadata 2, labels 3, x's outermost list 4.
    const depth = DOCUMENT_BOUNDS.maxDepth - 3;
    const text = `${POOL_HEAD}  labels:\n    x: ${nested('[', ']', depth)}\n`;

    const deeper = `${POOL_HEAD}  labels:\n    x: ${nested('[', ']', depth + 1)}\n`;

    // Act
    const documents = readDocuments(text, 'pool.yaml');
    const error = manifestErrorOf(() => readDocuments(deeper, 'pool.yaml'));

    // Assess
    expect(documents).toHaveLength(1);
    expect(error.detail).toContain('nested deeper than');
  });

  it.each([
    ['__proto__', 'yaml', `${POOL_HEAD}  __proto__: {polluted: true}\n`, 5],
    ['constructor', 'yaml', `${POOL_HEAD}  labels:\n    constructor: x\n`, 6],
    ['prototype', 'yaml', `${POOL_HEAD}spec:\n  prototype: {}\n`, 6],
    [
      '__proto__',
      'json',
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a",\n"__proto__":{"x":1}}}',
      2,
    ],
  ])('refuses a %s key in %s, naming it', (key, _, text, line) => {
    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'object'));

    // Assess
    expect(error.detail).toContain(`"${key}" is not allowed as a key`);
    expect(error.location.path).toMatch(new RegExp(`\\.${key}$`));
    expect(error.location.line).toBe(line);
  });

  it('refuses a file over the size bound before parsing it', () => {
    // Prepare
    const text = `# ${'x'.repeat(DOCUMENT_BOUNDS.maxCharacters)}\n`;

    // Act
    const error = manifestErrorOf(() => readDocuments(text, 'huge.yaml'));

    // Assess
    expect(error.message).toMatch(/^huge\.yaml: is \d+ characters, over the limit/);
  });

  it('refuses a file over the node bound, counting keys, values and items', () => {
    // Prepare: the bound as readDocuments holds it, made small enough to reach in a test.
    const budget = newBoundsBudget(false, { ...DOCUMENT_BOUNDS, maxNodes: 1000 });
    const value = { kind: 'ConfigMap', data: Array.from({ length: 996 }, () => 1) };

    // Act
    const error = manifestErrorOf(() => checkBounds(value, budget));

    // Assess: the object, two keys, kind's value, the list, 995 items make 1,000.
    expect(error.detail).toBe('holds more than 1000 nodes; split it into smaller files');
    expect(error.location.path).toBe('data[995]');
  });
});
