/**
 * The template's HTTP API as the cluster's webhooks reach the deployed stack: its routes and its
 * stage's throttling served on a port of 127.0.0.1, where the execute-api host of the stack's
 * `ApiUrl` output would have taken the calls. One per run: the admission wake and the audit
 * webhook share it, and its stage, as they share the deployed API. The calls go over kept-alive
 * connections, as kube-apiserver's webhook client keeps its own: a burst of admission calls
 * opens no connection per call.
 */
import { Agent } from 'node:http';
import { type HttpAnswer, httpText } from '../http-request.ts';
import type { CloudFormationTemplate } from '../iam/template-policies.ts';
import { type HttpApi, startHttpApi } from '../lambda/http-api.ts';
import { httpApiRoutes } from '../lambda/http-api-routes.ts';
import { stageThrottling } from '../lambda/http-api-throttling.ts';
import type { ResolveValue } from '../lambda/template-resolver.ts';
import { requiredOutput } from './stack-output.ts';

export interface DeployedHttpApiOptions {
  readonly template: CloudFormationTemplate;
  readonly resolve: ResolveValue;
  readonly accountId: string;
  readonly invoke: (functionLogicalId: string, event: unknown) => Promise<unknown>;
  readonly now: () => number;
}

/** What a caller of the deployed API sends: a POST of a body, with its headers. */
export interface ApiPost {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export class DeployedHttpApi {
  readonly #api: HttpApi;
  readonly #agent = new Agent({ keepAlive: true });

  private constructor(api: HttpApi) {
    this.#api = api;
  }

  static async start(options: DeployedHttpApiOptions): Promise<DeployedHttpApi> {
    const { template, resolve } = options;
    const apiUrl = new URL(requiredOutput(template, resolve, 'ApiUrl'));
    const api = await startHttpApi({
      routes: httpApiRoutes(template),
      invoke: options.invoke,
      // The cluster's webhooks call only the routes kube-apiserver cannot sign for.
      callerOf: () => undefined,
      accountId: options.accountId,
      apiId: apiUrl.hostname.split('.')[0] ?? '',
      now: options.now,
      throttling: stageThrottling(template),
    });
    return new DeployedHttpApi(api);
  }

  /** A POST to a URL of the stack's API, reaching the same path here. */
  post(url: string, post: ApiPost): Promise<HttpAnswer> {
    return httpText(new URL(new URL(url).pathname, this.#api.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...post.headers },
      body: post.body,
      agent: this.#agent,
    });
  }

  close(): Promise<void> {
    this.#agent.destroy();
    return this.#api.close();
  }
}
