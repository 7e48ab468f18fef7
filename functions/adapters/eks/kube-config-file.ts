/**
 * A kubeconfig file as kubectl reads it, for the CLI's `plan --kubeconfig FILE --context NAME`.
 * client-node only notices a missing context, cluster or user at the first request, with an
 * error that names none of them; here they are checked up front and named.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { InvalidConfigError } from '../../ports/errors.ts';

function load(path: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromFile(path);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new InvalidConfigError(`reading kubeconfig ${path}: ${detail}`, { cause: err });
  }
  return kubeConfig;
}

function contextNames(kubeConfig: KubeConfig): string {
  const names = kubeConfig.getContexts().map((context) => context.name);
  return names.length === 0 ? 'it defines none' : `it defines ${names.join(', ')}`;
}

/** The context to use: the one asked for, else the file's current-context. */
function chooseContext(kubeConfig: KubeConfig, path: string, wanted: string | undefined): string {
  const doing = `reading kubeconfig ${path}`;
  // The file's current-context is absent when the file sets none, whatever the type says.
  const name = wanted ?? (kubeConfig.getCurrentContext() as string | undefined);
  if (name === undefined || name === '') {
    throw new InvalidConfigError(
      `${doing}: no current-context is set, so name a context; ${contextNames(kubeConfig)}`,
    );
  }
  if (kubeConfig.getContextObject(name) === null) {
    throw new InvalidConfigError(`${doing}: no context named ${name}; ${contextNames(kubeConfig)}`);
  }
  return name;
}

function checkReferences(kubeConfig: KubeConfig, path: string, contextName: string): void {
  const context = kubeConfig.getContextObject(contextName);
  const doing = `reading kubeconfig ${path}: context ${contextName}`;
  if (context === null) return;
  if (kubeConfig.getCluster(context.cluster) === null) {
    throw new InvalidConfigError(
      `${doing} names cluster ${context.cluster}, which the file does not define`,
    );
  }
  if (context.user !== undefined && kubeConfig.getUser(context.user) === null) {
    throw new InvalidConfigError(
      `${doing} names user ${context.user}, which the file does not define`,
    );
  }
}

/**
 * The file's configuration with `context` (else its current-context) selected. Throws
 * InvalidConfigError naming the file when it cannot be read or parsed, and naming the contexts
 * it has when the one wanted is not among them.
 */
export function kubeConfigFromFile(path: string, context?: string): KubeConfig {
  const kubeConfig = load(path);
  const name = chooseContext(kubeConfig, path, context);
  checkReferences(kubeConfig, path, name);
  kubeConfig.setCurrentContext(name);
  return kubeConfig;
}
