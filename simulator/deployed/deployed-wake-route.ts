/**
 * The admission wake as an operator wires it to the deployed stack: deploy/wake-webhook.yaml
 * filled with the stack's `WakeWebhookUrl` output and the token its `WakeTokenSecretArn` secret
 * holds, and kube-apiserver's calls to that URL reaching the template's HTTP API — its routes and
 * its stage's throttling — where the execute-api host would have sent them.
 */
import type { JsonObject } from '../api-server/json.ts';
import type { SimulatedSecrets } from '../aws/secrets-manager/simulated-secrets.ts';
import type { CloudFormationTemplate } from '../iam/template-policies.ts';
import type { ResolveValue } from '../lambda/template-resolver.ts';
import type { DeployedHttpApi } from './deployed-http-api.ts';
import { requiredOutput } from './stack-output.ts';

export interface DeployedStackParts {
  readonly template: CloudFormationTemplate;
  readonly resolve: ResolveValue;
  readonly secrets: SimulatedSecrets;
}

export class DeployedWakeRoute {
  readonly #api: Pick<DeployedHttpApi, 'post'>;
  /** The webhook's URL as deploy/wake-webhook.yaml is filled in: the output, then the token. */
  readonly wakeUrl: string;

  private constructor(api: Pick<DeployedHttpApi, 'post'>, wakeUrl: string) {
    this.#api = api;
    this.wakeUrl = wakeUrl;
  }

  static of(api: Pick<DeployedHttpApi, 'post'>, stack: DeployedStackParts): DeployedWakeRoute {
    const { template, resolve } = stack;
    const webhookUrl = requiredOutput(template, resolve, 'WakeWebhookUrl');
    const secret = stack.secrets.get(requiredOutput(template, resolve, 'WakeTokenSecretArn'));
    const { token } = JSON.parse(secret.value) as { token: string };
    return new DeployedWakeRoute(api, `${webhookUrl}${token}`);
  }

  /**
   * kube-apiserver posts an AdmissionReview to the webhook's URL; an answer other than 200 is a
   * failed call, as kube-apiserver reads one (a 429 past the route's throttling among them).
   */
  async admission(url: string, review: JsonObject): Promise<unknown> {
    const answer = await this.#api.post(url, { headers: {}, body: JSON.stringify(review) });
    if (answer.status !== 200) throw new Error(`the webhook answered ${answer.status}`);
    return JSON.parse(answer.body);
  }
}
