/**
 * The admission wake as an operator wires it to the deployed stack: deploy/wake-webhook.yaml
 * filled with the stack's `WakeWebhookUrl` output and the token its `WakeTokenSecretArn` secret
 * holds, and kube-apiserver's calls to that URL reaching the template's HTTP API — its routes and
 * its stage's throttling — on 127.0.0.1, where the execute-api host would have sent them.
 */
import type { JsonObject } from '../api-server/json.ts';
import type { SimulatedSecrets } from '../aws/secrets-manager/simulated-secrets.ts';
import type { CloudFormationTemplate } from '../iam/template-policies.ts';
import { type HttpApi, startHttpApi } from '../lambda/http-api.ts';
import { httpApiRoutes } from '../lambda/http-api-routes.ts';
import { stageThrottling } from '../lambda/http-api-throttling.ts';
import type { ResolveValue } from '../lambda/template-resolver.ts';

export interface DeployedWakeRouteOptions {
  readonly template: CloudFormationTemplate;
  readonly resolve: ResolveValue;
  readonly secrets: SimulatedSecrets;
  readonly accountId: string;
  readonly invoke: (functionLogicalId: string, event: unknown) => Promise<unknown>;
  readonly now: () => number;
}

function output(template: CloudFormationTemplate, resolve: ResolveValue, name: string): string {
  const value = template.Outputs?.[name]?.Value;
  if (value === undefined) throw new Error(`the stack has no ${name} output`);
  return resolve(value);
}

export class DeployedWakeRoute {
  readonly #api: HttpApi;
  /** The webhook's URL as deploy/wake-webhook.yaml is filled in: the output, then the token. */
  readonly wakeUrl: string;

  private constructor(api: HttpApi, wakeUrl: string) {
    this.#api = api;
    this.wakeUrl = wakeUrl;
  }

  static async start(options: DeployedWakeRouteOptions): Promise<DeployedWakeRoute> {
    const { template, resolve } = options;
    const webhookUrl = new URL(output(template, resolve, 'WakeWebhookUrl'));
    const secret = options.secrets.get(output(template, resolve, 'WakeTokenSecretArn'));
    const { token } = JSON.parse(secret.value) as { token: string };
    const api = await startHttpApi({
      routes: httpApiRoutes(template),
      invoke: options.invoke,
      // The wake route is the only one called here, and it is not signed.
      callerOf: () => undefined,
      accountId: options.accountId,
      apiId: webhookUrl.hostname.split('.')[0] ?? '',
      now: options.now,
      throttling: stageThrottling(template),
    });
    return new DeployedWakeRoute(api, `${webhookUrl.href}${token}`);
  }

  /**
   * kube-apiserver posts an AdmissionReview to the webhook's URL; an answer other than 200 is a
   * failed call, as kube-apiserver reads one (a 429 past the route's throttling among them).
   */
  async admission(url: string, review: JsonObject): Promise<unknown> {
    const answer = await fetch(new URL(new URL(url).pathname, this.#api.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(review),
    });
    if (answer.status !== 200) throw new Error(`the webhook answered ${answer.status}`);
    return answer.json();
  }

  close(): Promise<void> {
    return this.#api.close();
  }
}
