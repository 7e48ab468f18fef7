/**
 * kube-apiserver's ValidatingAdmissionWebhook plugin, for the simulated API server: the
 * configurations' webhooks whose rules, selectors and `matchConditions` take a request are called
 * in parallel with an AdmissionReview; any denial refuses the request. A call that fails — no
 * answer within `timeoutSeconds`, an error, an answer that is not a review of this request — or
 * a match condition that errors refuses it under `failurePolicy: Fail` and is ignored under
 * `Ignore` (Kubernetes documentation, "Dynamic Admission Control").
 */
import type { JsonObject } from '../api-server/json.ts';
import { isJsonObject } from '../api-server/json.ts';
import { matchesLabels, requirementsOf } from '../api-server/label-selector.ts';
import { type AdmissionAttributes, admissionReview } from './admission-attributes.ts';
import { type CompiledConditions, compileMatchConditions } from './match-conditions.ts';
import type {
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
} from './validating-webhook-configuration.ts';
import { ruleMatches } from './webhook-rules.ts';

/** Posts the review to the webhook's URL; resolves with the answer's body, parsed. */
export type WebhookTransport = (
  url: string,
  review: JsonObject,
  timeoutMs: number,
) => Promise<unknown>;

export type CallOutcome = 'allowed' | 'denied' | 'ignored failure' | 'refused on failure';

export interface WebhookCall {
  readonly webhook: string;
  readonly outcome: CallOutcome;
  readonly detail?: string;
}

export interface AdmissionVerdict {
  readonly allowed: boolean;
  /** Why the request was refused, as kube-apiserver words it. */
  readonly message?: string;
  readonly calls: readonly WebhookCall[];
}

export interface ValidatingAdmissionOptions {
  readonly configurations: () => readonly ValidatingWebhookConfiguration[];
  readonly transport: WebhookTransport;
  /** A namespace's labels, for `namespaceSelector`. */
  readonly namespaceLabels?: (namespace: string) => Readonly<Record<string, string>>;
  /**
   * Whether a call's `timeoutSeconds` runs on the wall clock (the default). The simulated world
   * says no: its clock holds still while a second's calls are out, so on its clock no call
   * outlives its timeout, and a call ends when the webhook answers or Lambda and API Gateway give
   * up, however long a machine busy with a burst of cold starts takes to get there.
   */
  readonly timeoutsOnWallClock?: boolean;
}

function labelsOf(object: JsonObject | null): Record<string, string> {
  const metadata = object?.metadata;
  const labels = isJsonObject(metadata) ? metadata.labels : undefined;
  return isJsonObject(labels) ? (labels as Record<string, string>) : {};
}

function selects(selector: object, labels: readonly Record<string, string>[]): boolean {
  const requirements = requirementsOf(selector as JsonObject);
  if (requirements === undefined) return false;
  return requirements.length === 0 || labels.some((l) => matchesLabels(l, requirements));
}

/** The answer's allowed flag and message, or why it is not an answer to this review. */
function readAnswer(answer: unknown, uid: string): { allowed: boolean; message?: string } {
  const response = isJsonObject(answer) ? answer.response : undefined;
  const valid =
    isJsonObject(answer) &&
    answer.apiVersion === 'admission.k8s.io/v1' &&
    answer.kind === 'AdmissionReview' &&
    isJsonObject(response) &&
    response.uid === uid &&
    typeof response.allowed === 'boolean';
  if (!valid || !isJsonObject(response))
    throw new Error('the answer is not an AdmissionReview of the request');
  const status = isJsonObject(response.status) ? response.status : {};
  return {
    allowed: response.allowed === true,
    ...(typeof status.message === 'string' ? { message: status.message } : {}),
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000}s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export class ValidatingAdmission {
  readonly #options: ValidatingAdmissionOptions;
  readonly #compiled = new Map<ValidatingWebhook, CompiledConditions>();
  #calls = 0;

  constructor(options: ValidatingAdmissionOptions) {
    this.#options = options;
  }

  async admit(attributes: AdmissionAttributes): Promise<AdmissionVerdict> {
    const webhooks = this.#options.configurations().flatMap((c) => c.webhooks);
    const calls = (
      await Promise.all(webhooks.map((webhook) => this.#consult(webhook, attributes)))
    ).filter((call): call is WebhookCall => call !== undefined);
    const refusal = calls.find((c) => c.outcome === 'denied' || c.outcome === 'refused on failure');
    if (refusal === undefined) return { allowed: true, calls };
    const message = `admission webhook "${refusal.webhook}" denied the request${refusal.detail ? `: ${refusal.detail}` : ''}`;
    return { allowed: false, message, calls };
  }

  #takes(webhook: ValidatingWebhook, attributes: AdmissionAttributes): boolean {
    if (!webhook.rules.some((rule) => ruleMatches(rule, attributes))) return false;
    const objects = [labelsOf(attributes.object), labelsOf(attributes.oldObject)];
    if (!selects(webhook.objectSelector, objects)) return false;
    const { namespace } = attributes;
    if (namespace === undefined) return true;
    return selects(webhook.namespaceSelector, [this.#options.namespaceLabels?.(namespace) ?? {}]);
  }

  #conditions(webhook: ValidatingWebhook): CompiledConditions {
    let compiled = this.#compiled.get(webhook);
    if (compiled === undefined) {
      compiled = compileMatchConditions(webhook.matchConditions);
      this.#compiled.set(webhook, compiled);
    }
    return compiled;
  }

  /** The call made, or undefined when the webhook does not take the request. */
  async #consult(webhook: ValidatingWebhook, attributes: AdmissionAttributes) {
    if (!this.#takes(webhook, attributes)) return undefined;
    this.#calls += 1;
    const uid = `00000000-0000-4000-a000-${String(this.#calls).padStart(12, '0')}`;
    const review = admissionReview(attributes, uid);
    const matched = this.#conditions(webhook).evaluate({
      object: attributes.object,
      oldObject: attributes.oldObject,
      request: review.request,
    });
    if (matched === 'skip') return undefined;
    if (matched !== 'match') return this.#failed(webhook, matched.error);
    return this.#call(webhook, review, uid);
  }

  async #call(webhook: ValidatingWebhook, review: JsonObject, uid: string): Promise<WebhookCall> {
    const url = webhook.clientConfig.url;
    if (url === undefined) return this.#failed(webhook, 'service references are not modelled');
    try {
      const answer = readAnswer(
        await this.#answerOf(url, review, webhook.timeoutSeconds * 1000),
        uid,
      );
      if (answer.allowed) return { webhook: webhook.name, outcome: 'allowed' };
      return {
        webhook: webhook.name,
        outcome: 'denied',
        ...(answer.message ? { detail: answer.message } : {}),
      };
    } catch (err) {
      return this.#failed(webhook, (err as Error).message);
    }
  }

  #answerOf(url: string, review: JsonObject, timeoutMs: number): Promise<unknown> {
    const answer = this.#options.transport(url, review, timeoutMs);
    return this.#options.timeoutsOnWallClock === false ? answer : withTimeout(answer, timeoutMs);
  }

  #failed(webhook: ValidatingWebhook, detail: string): WebhookCall {
    const outcome = webhook.failurePolicy === 'Fail' ? 'refused on failure' : 'ignored failure';
    return { webhook: webhook.name, outcome, detail: `failed calling webhook: ${detail}` };
  }
}
