/**
 * The built binary plans only nodes the controller can launch: an Amazon Linux 2 class is refused
 * at the field that names it, with the alias that replaces it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AL2_UNSUPPORTED } from '../../functions/domain/unsupported-ami-family.ts';
import { runCli } from '../support/cli.ts';
import { SHOP_NODE_CLASS, SHOP_NODE_POOL } from '../support/karpenter-documents.ts';

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: web
      image: nginx
      resources: { requests: { cpu: "1" } }
`;

function write(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'nodesmith-ami-')), name);
  writeFileSync(file, text);
  return file;
}

describe('nodesmith plan and the AMI family', () => {
  it.each([
    ['the al2@latest alias', 'alias: al2@latest', 'spec.amiSelectorTerms[0].alias'],
    ['amiFamily AL2', 'alias: al2023@latest\n  amiFamily: AL2', 'spec.amiFamily'],
  ])('refuses an EC2NodeClass with %s, exit status 2', async (_, replacement, field) => {
    // Prepare
    const nodeClass = SHOP_NODE_CLASS.replace('alias: al2023@latest', replacement);
    const file = write('al2.yaml', [SHOP_NODE_POOL, nodeClass, POD].join('---\n'));

    // Act
    const result = await runCli(['plan', '-f', file, '-o', 'json']);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toMatch(
      new RegExp(`^nodesmith: ${file}:\\d+: ${field.replace(/[[\].]/g, '\\$&')}: `),
    );
    expect(result.stderr.trim().endsWith(AL2_UNSUPPORTED)).toBe(true);
  });
});
