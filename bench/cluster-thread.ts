/**
 * The seeded cluster's API server on a thread of its own (bench/cluster-thread-entry.ts runs
 * there). In a real cluster kube-apiserver runs on other machines, and encoding lists and watch
 * events costs the controller nothing; sharing the controller's thread, the simulated server's
 * encoding of a burst's 5,000 watch events was timed as part of the pass. On its own thread it
 * runs beside the pass, as EKS's does.
 */
import { Worker } from 'node:worker_threads';
import type { JsonObject } from '../simulator/api-server/json.ts';
import type { ResourceName } from '../simulator/api-server/resource-names.ts';

/** The cluster the thread seeds: `nodes` of bench/seeded-nodes.ts, spread over `zones`. */
export interface ClusterThreadData {
  readonly nodes: number;
  readonly zones: readonly string[];
}

/** What the parent asks; each is answered with `{ id }` once done. */
export type ClusterThreadRequest = { readonly id: number } & (
  | {
      readonly op: 'create';
      readonly resource: ResourceName;
      readonly objects: readonly JsonObject[];
    }
  | { readonly op: 'reportNodeStatus' }
  | { readonly op: 'close' }
);

interface Waiting {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

export class ClusterThread {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 0;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (message: { id?: number }) => {
      if (message.id === undefined) return;
      this.#waiting.get(message.id)?.resolve();
      this.#waiting.delete(message.id);
    });
    // A request the thread can no longer answer fails rather than hangs the bench.
    const fail = (error: Error) => {
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('the cluster thread ended')));
  }

  /**
   * Starts the thread from the bundle's entry beside this chunk (scripts/build-cli.mjs,
   * `--bench`); resolves with its server's URL once the cluster is seeded.
   */
  static start(data: ClusterThreadData): Promise<{ thread: ClusterThread; url: string }> {
    const worker = new Worker(new URL('./bench-cluster.mjs', import.meta.url), {
      workerData: data,
    });
    return new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (message: { url: string }) => {
        worker.off('error', reject);
        resolve({ thread: new ClusterThread(worker), url: message.url });
      });
    });
  }

  /** Sends the request; resolves once the thread has done it. */
  ask(request: DistributiveOmit<ClusterThreadRequest, 'id'>): Promise<void> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
