/**
 * `cdk synth` run once for a given lib/, functions/, cdk.json, lock file and context, its output
 * kept and read back: the template and each bundled function's code and handler.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { synthesisHash } from '../../../simulator/synthesis/synthesized-stack.ts';
import { synthesizedForTests } from '../../support/synthesized-stack.ts';

/** A project of four files: enough for the hash, which reads only these. */
function aProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'synth-inputs-'));
  mkdirSync(join(root, 'lib'));
  mkdirSync(join(root, 'functions', 'handlers'), { recursive: true });
  writeFileSync(join(root, 'lib', 'stack.ts'), 'export class Stack {}');
  writeFileSync(join(root, 'functions', 'handlers', 'index.ts'), 'export const handler = 1;');
  writeFileSync(join(root, 'cdk.json'), '{"app":"tsx bin/app.ts"}');
  writeFileSync(join(root, 'package-lock.json'), '{}');
  return root;
}

describe('the synthesized stack', () => {
  it('is synthesized once and read back while its inputs stay the same', () => {
    // Prepare
    const first = synthesizedForTests();
    // Act
    const second = synthesizedForTests();
    // Assess
    expect(second.reused).toBe(true);
    expect(second.outdir).toBe(first.outdir);
    expect(second.template).toEqual(first.template);
  }, 180_000);

  it('names each bundled function’s code directory and handler from the template', () => {
    // Act
    const { functions, stackName } = synthesizedForTests();
    // Assess
    expect(stackName).toBe('Nodesmith-shop');
    const handlers = Object.entries(functions).map(([id, f]) => [id.slice(0, -8), f.handler]);
    expect(handlers.sort()).toEqual([
      ['Api', 'index.handler'],
      ['AuditLogs', 'index.logs'],
      ['Controller', 'index.handler'],
      ['Interruption', 'index.handler'],
      ['WakeWebhook', 'index.admission'],
    ]);
    for (const { directory } of Object.values(functions)) {
      expect(existsSync(join(directory, 'index.mjs')), directory).toBe(true);
    }
  }, 180_000);

  it('is synthesized again when a source, cdk.json, the lock file or the context changes', () => {
    // Prepare
    const root = aProject();
    const context = { clusterName: 'shop' };
    const before = synthesisHash(root, context);
    const changes = [
      () => writeFileSync(join(root, 'functions', 'handlers', 'index.ts'), 'export const h = 2;'),
      () => writeFileSync(join(root, 'lib', 'queues.ts'), 'export const queues = [];'),
      () => writeFileSync(join(root, 'cdk.json'), '{"app":"tsx bin/app.ts","context":{}}'),
      () => writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}'),
    ];
    // Act
    const hashes = changes.map((change) => {
      change();
      return synthesisHash(root, context);
    });
    const otherContext = synthesisHash(root, { clusterName: 'lab' });
    // Assess
    expect(new Set([before, ...hashes, otherContext]).size).toBe(6);
    expect(synthesisHash(root, context)).toBe(hashes.at(-1));
  });
});
