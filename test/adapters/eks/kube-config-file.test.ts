import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kubeConfigFromFile } from '../../../functions/adapters/eks/kube-config-file.ts';
import { InvalidConfigError } from '../../../functions/ports/errors.ts';

const directory = mkdtempSync(join(tmpdir(), 'nodesmith-kubeconfig-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const TWO_CLUSTERS = `apiVersion: v1
kind: Config
current-context: prod
clusters:
- name: prod
  cluster:
    server: https://prod.example.com
- name: staging
  cluster:
    server: https://staging.example.com
users:
- name: prod-admin
  user:
    token: prod-token
- name: staging-admin
  user:
    token: staging-token
contexts:
- name: prod
  context:
    cluster: prod
    user: prod-admin
- name: staging
  context:
    cluster: staging
    user: staging-admin
    namespace: batch
`;

let files = 0;
function aKubeconfig(text: string): string {
  files += 1;
  const path = join(directory, `config-${files}`);
  writeFileSync(path, text);
  return path;
}

function failureOf(load: () => unknown): Error {
  try {
    load();
  } catch (err) {
    if (err instanceof Error) return err;
  }
  throw new Error('expected the load to fail');
}

describe('a kubeconfig file', () => {
  it('uses its current-context when no context is named', () => {
    // Prepare
    const path = aKubeconfig(TWO_CLUSTERS);
    // Act
    const kubeConfig = kubeConfigFromFile(path);
    // Assess
    expect(kubeConfig.getCurrentContext()).toBe('prod');
    expect(kubeConfig.getCurrentCluster()?.server).toBe('https://prod.example.com');
    expect(kubeConfig.getCurrentUser()?.token).toBe('prod-token');
  });

  it('uses the context named', () => {
    // Prepare
    const path = aKubeconfig(TWO_CLUSTERS);
    // Act
    const kubeConfig = kubeConfigFromFile(path, 'staging');
    // Assess
    expect(kubeConfig.getCurrentContext()).toBe('staging');
    expect(kubeConfig.getCurrentCluster()?.server).toBe('https://staging.example.com');
    expect(kubeConfig.getCurrentUser()?.token).toBe('staging-token');
  });

  it('fails naming the contexts it has when the one named is not among them', () => {
    // Prepare
    const path = aKubeconfig(TWO_CLUSTERS);
    // Act
    const error = failureOf(() => kubeConfigFromFile(path, 'dev'));
    // Assess
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error.message).toBe(
      `reading kubeconfig ${path}: no context named dev; it defines prod, staging`,
    );
  });

  it('fails when it sets no current-context and none is named', () => {
    // Prepare
    const path = aKubeconfig(TWO_CLUSTERS.replace('current-context: prod\n', ''));
    // Act
    const error = failureOf(() => kubeConfigFromFile(path));
    // Assess
    expect(error.message).toBe(
      `reading kubeconfig ${path}: no current-context is set, so name a context; it defines prod, staging`,
    );
  });

  it('fails when the context names a cluster it does not define', () => {
    // Prepare
    const path = aKubeconfig(TWO_CLUSTERS.replace('    cluster: staging\n', '    cluster: gone\n'));
    // Act
    const error = failureOf(() => kubeConfigFromFile(path, 'staging'));
    // Assess
    expect(error.message).toBe(
      `reading kubeconfig ${path}: context staging names cluster gone, which the file does not define`,
    );
  });

  it('fails when the context names a user it does not define', () => {
    // Prepare
    const path = aKubeconfig(TWO_CLUSTERS.replace('    user: prod-admin\n', '    user: nobody\n'));
    // Act
    const error = failureOf(() => kubeConfigFromFile(path));
    // Assess
    expect(error.message).toBe(
      `reading kubeconfig ${path}: context prod names user nobody, which the file does not define`,
    );
  });

  it('fails naming a file that does not exist, keeping the cause', () => {
    // Prepare
    const path = join(directory, 'absent');
    // Act
    const error = failureOf(() => kubeConfigFromFile(path));
    // Assess
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error.message).toMatch(new RegExp(`^reading kubeconfig ${path}: ENOENT`));
    expect((error.cause as { code?: string }).code).toBe('ENOENT');
  });

  it('fails naming a file that is not yaml', () => {
    // Prepare
    const path = aKubeconfig('clusters: [\n');
    // Act
    const error = failureOf(() => kubeConfigFromFile(path));
    // Assess
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error.message.startsWith(`reading kubeconfig ${path}: `)).toBe(true);
  });
});
