/**
 * deploy/wake-webhook.yaml as an operator applies it: `envsubst` fills `${NODESMITH_WAKE_URL}`
 * with the stack's WakeWebhookUrl and the token, and the API server validates and defaults it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import {
  type ValidatingWebhookConfiguration,
  validatingWebhookConfigurationSchema,
} from './validating-webhook-configuration.ts';

const MANIFEST = join('deploy', 'wake-webhook.yaml');

/** The nearest folder above this code holding the manifest: the project, bundled or not. */
function manifestPath(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, MANIFEST))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no ${MANIFEST} above the simulator`);
    folder = parent;
  }
  return join(folder, MANIFEST);
}

export function appliedWakeWebhook(wakeUrl: string): ValidatingWebhookConfiguration {
  const text = readFileSync(manifestPath(), 'utf8').replaceAll('${NODESMITH_WAKE_URL}', wakeUrl);
  return validatingWebhookConfigurationSchema.parse(parse(text));
}
