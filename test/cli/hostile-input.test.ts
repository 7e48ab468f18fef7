/**
 * The built binary under hostile `-f` and `--limits` files: an alias bomb, deep nesting and a
 * prototype key each end in exit status 2 and one line naming the file, line and field.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { aliasChain, nested } from '../support/hostile-documents.ts';

function write(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-hostile-')), name);
  writeFileSync(file, text);
  return file;
}

describe('nodesmith under hostile files', () => {
  it.each([
    [
      'an alias bomb in a NodePool',
      'pool.yaml',
      aliasChain(7),
      /:\d+: metadata\.labels\.a\d.*: aliases repeat more than 100000 nodes/,
    ],
    [
      '5,000 nested lists in JSON',
      'pool.json',
      `{"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"a",\n"labels":{"x":${nested('[', ']', 5000)}}}}`,
      /:2: metadata\.labels\.x\[0\].*: nested deeper than 100 levels$/,
    ],
    [
      'a __proto__ key',
      'pod.yaml',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  __proto__: {x: 1}\n',
      /:5: metadata\.__proto__: "__proto__" is not allowed as a key/,
    ],
  ])('plan -f refuses %s with exit status 2', async (_, name, text, message) => {
    // Prepare
    const file = write(name, text);

    // Act
    const result = await runCli(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toMatch(new RegExp(`^nodesmith: ${file}${message.source}`));
  });

  it('plan --limits refuses an alias bomb in the limits file', async () => {
    // Prepare
    const pods = write('pods.yaml', 'apiVersion: v1\nkind: List\nitems: []\n');
    const limits = write('limits.yaml', aliasChain(7, 'ClusterLimits', 'nodesmith.io/v1'));

    // Act
    const result = await runCli(['plan', '-f', pods, '--limits', limits, '-o', 'json']);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/limits\.yaml:\d+: metadata\.labels\.a\d.*: aliases repeat/);
  });
});
