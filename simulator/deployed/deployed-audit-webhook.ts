/**
 * kube-apiserver's audit webhook backend as an operator of a self-managed cluster points it at the
 * deployed stack (docs/audit-relay.md, "Self-managed clusters: the audit webhook"): the webhook
 * kubeconfig's server is the stack's `AuditWebhookUrl` output and its user's token the value of
 * the `AuditTokenSecretArn` secret. Each batch is an `audit.k8s.io/v1` EventList POSTed with
 * `Authorization: Bearer <token>` through the template's HTTP API to the relay's bundle behind
 * `POST /v1/audit`. An answer other than 2xx is a failed delivery: kube-apiserver logs it and
 * drops the batch, retrying only transient errors (kubernetes/kubernetes,
 * staging/src/k8s.io/apiserver/pkg/util/webhook/webhook.go), which the relay's refusals — a 401
 * for the token, a 400 or 413 for the body — are not. Retries are not modelled: a transient
 * failure counts as failed, and only a refusal is reported as one.
 */
import type { JsonObject } from '../api-server/json.ts';
import type { DeployedHttpApi } from './deployed-http-api.ts';
import type { DeployedStackParts } from './deployed-wake-route.ts';
import { stackOutput } from './stack-output.ts';

/** What the webhook kubeconfig (`--audit-webhook-config-file`) gives the backend. */
export interface AuditWebhookKubeconfig {
  readonly server: string;
  readonly token: string;
}

/** The words of a refusal: the relay's `error`, API Gateway's `message`, or the body itself. */
function reason(body: string): string {
  try {
    const answer = JSON.parse(body) as { error?: unknown; message?: unknown };
    return String(answer.error ?? answer.message ?? body);
  } catch {
    return body;
  }
}

export class DeployedAuditWebhook {
  readonly #api: Pick<DeployedHttpApi, 'post'>;
  readonly #kubeconfig: AuditWebhookKubeconfig;
  readonly #refused: string[] = [];
  #failed = 0;

  constructor(api: Pick<DeployedHttpApi, 'post'>, kubeconfig: AuditWebhookKubeconfig) {
    this.#api = api;
    this.#kubeconfig = kubeconfig;
  }

  /** The backend the operator configures for the stack; none when it has no audit webhook. */
  static of(
    api: Pick<DeployedHttpApi, 'post'>,
    stack: DeployedStackParts,
  ): DeployedAuditWebhook | undefined {
    const { template, resolve } = stack;
    const server = stackOutput(template, resolve, 'AuditWebhookUrl');
    const secretArn = stackOutput(template, resolve, 'AuditTokenSecretArn');
    if (server === undefined || secretArn === undefined) return undefined;
    return new DeployedAuditWebhook(api, { server, token: stack.secrets.get(secretArn).value });
  }

  /** Sends one batch; resolves with the status the relay (or API Gateway) answered. */
  async post(eventList: JsonObject): Promise<number> {
    const { server, token } = this.#kubeconfig;
    const answer = await this.#api.post(server, {
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify(eventList),
    });
    if (answer.status >= 200 && answer.status <= 299) return answer.status;
    this.#failed += 1;
    if (answer.status >= 400 && answer.status <= 499 && answer.status !== 429) {
      this.#refused.push(
        `the audit webhook's batch was answered ${answer.status}: ${reason(answer.body)}`,
      );
    }
    return answer.status;
  }

  /** Batches the relay did not take, dropped as kube-apiserver drops them. */
  get failedDeliveries(): number {
    return this.#failed;
  }

  /** Each batch refused, with the status and the words it was answered with. */
  get refused(): readonly string[] {
    return this.#refused;
  }
}
