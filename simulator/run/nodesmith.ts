/**
 * Nodesmith as the simulated world reaches it: the same three doors whether its functions run
 * in this process (in-process-nodesmith.ts, for speed) or as deployed, each from its bundle in
 * its own process behind the template's queues, rules and routes (simulator/deployed).
 */

import type { Decision } from '../../functions/ports/decisions.ts';
import type { WakeSource } from '../../functions/ports/wake.ts';
import type { PassReport } from '../../functions/use-cases/controller/pass-report.ts';
import type { JsonObject } from '../api-server/json.ts';
import type { QueuedWake } from '../simulated-work-queue.ts';

/**
 * What a deployed run reports of the account: calls per IAM action, every denial, and the calls
 * of each function (by its logical id in the template, as denials name it).
 */
export interface AwsActivity {
  /** `{"ec2:CreateFleet": 3, …}`, every function's calls. */
  readonly calls: Readonly<Record<string, number>>;
  readonly denied: readonly { function?: string; action: string; resource?: string }[];
  /** `{"Controller9BE1D41E": {"ec2:CreateFleet": 3, …}, …}`: functions that made no call are absent. */
  readonly byFunction: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/**
 * A Kubernetes request a deployed function made and the API server refused: 403 when RBAC allows
 * its group no such request, 401 when its credentials did not authenticate.
 */
export interface KubernetesDenial {
  /** The function, when its credentials name it (an EKS token's role session). */
  readonly function?: string;
  /** The user its token authenticated as; absent on a 401. */
  readonly user?: string;
  /** `patch`, `list`, `create`; absent on a 401. */
  readonly verb?: string;
  /** `nodes`, `pods/eviction`, `nodeclaims.karpenter.sh`; absent on a 401. */
  readonly resource?: string;
  readonly namespace?: string;
  readonly name?: string;
  /** The Status message the API server answered with. */
  readonly message: string;
}

/** What a deployed run reports of the cluster's access control: every refused request. */
export interface KubernetesActivity {
  readonly denied: readonly KubernetesDenial[];
}

export interface Nodesmith {
  /** The apiserver's audit backend sends a batch of audit events; resolves with the status. */
  audit(eventList: JsonObject): Promise<number>;
  /**
   * Where kube-apiserver sends the admission wake's reviews: the stack's WakeWebhookUrl followed
   * by the token of its WakeToken secret, as an operator fills in deploy/wake-webhook.yaml.
   */
  wakeUrl?(): Promise<string>;
  /** kube-apiserver posts an AdmissionReview to that URL; resolves with the answer's body. */
  admission?(url: string, review: JsonObject): Promise<unknown>;
  /** EC2 sends its spot interruption warnings (EventBridge events, as JSON) on their way. */
  spotWarnings(bodies: readonly string[]): Promise<void>;
  /**
   * Wakes sent by `source`, when they travel over the account's own work queue (deployed)
   * rather than the simulation's.
   */
  wakesSent?(source: WakeSource): number;
  /** What is due now runs: the wakes due, redeliveries, retries and schedules. */
  runDue(wakes: readonly QueuedWake[]): Promise<void>;
  /** Every controller pass's report, in order, when the passes run in reach. */
  readonly passes: readonly PassReport[];
  /** Whether `passes` holds them: false when the controller runs in its own process. */
  readonly reportsPasses: boolean;
  /**
   * How many invocations of its functions have ended, when its state is costly to read (deployed:
   * DynamoDB Local): what Nodesmith keeps changes only in them, so a reading stays good until then.
   */
  invocationsEnded?(): number;
  /** The decisions published on the cluster's event bus, in order. */
  decisions(): readonly Decision[];
  /** The AWS calls made and refused, when the functions reach AWS over the wire. */
  aws?(): AwsActivity;
  /** The Kubernetes requests refused, when the functions reach the API server as deployed. */
  kubernetes?(): KubernetesActivity;
  /**
   * The cluster's calls the relay refused, each in a line — audit batches answered 401, 400 or
   * 413 — when it runs behind the deployed stack's HTTP API.
   */
  relayRefusals?(): readonly string[];
  close(): Promise<void>;
}
