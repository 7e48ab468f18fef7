/**
 * One execution environment of a function: a Node.js process started from the function's bundle
 * by our bootstrap, with its Lambda environment, its memory divided among V8's heaps as Lambda
 * divides it (node-arguments.ts), and a Runtime API of its own. It runs one invocation at a
 * time; an invocation that outlives the function's timeout, or whose process ends, kills the
 * container, as Lambda discards an environment that timed out or crashed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FunctionDefinition } from './function-definition.ts';
import { FunctionError } from './function-error.ts';
import { type ContainerSettings, lambdaEnvironment } from './lambda-environment.ts';
import { lambdaNodeArguments } from './node-arguments.ts';
import { RuntimeApi } from './runtime-api.ts';
import type { SharedCores } from './shared-cores.ts';

/**
 * Lambda's limit on a function's Init phase (AWS Lambda Developer Guide, "Understanding the
 * Lambda execution environment lifecycle": "The Init phase is limited to 10 seconds").
 */
const INIT_SECONDS = 10;

const BOOTSTRAP = fileURLToPath(new URL('./bootstrap.mjs', import.meta.url));

export interface ContainerOptions extends Omit<ContainerSettings, 'runtimeApi' | 'logStreamName'> {
  /** The cores every container shares; timeouts are not stretched when absent. */
  readonly cores?: SharedCores;
  /** The world's time, epoch milliseconds on the simulated clock. */
  readonly now: () => number;
  /** Each line the function writes to standard output or error, as CloudWatch Logs gets it. */
  readonly onLog?: (line: string) => void;
}

/** `2026/11/27/[$LATEST]0123…`, as Lambda names a container's log stream. */
function logStreamName(nowMs: number): string {
  const day = new Date(nowMs).toISOString().slice(0, 10).replaceAll('-', '/');
  return `${day}/[$LATEST]${randomUUID().replaceAll('-', '')}`;
}

export class Container {
  readonly #definition: FunctionDefinition;
  readonly #options: ContainerOptions;
  readonly #api: RuntimeApi;
  readonly #process: ChildProcess;
  #busy = false;
  #dead = false;

  private constructor(
    definition: FunctionDefinition,
    options: ContainerOptions,
    api: RuntimeApi,
    child: ChildProcess,
  ) {
    this.#definition = definition;
    this.#options = options;
    this.#api = api;
    this.#process = child;
    child.on('exit', (code, signal) => this.#exited(code, signal));
    for (const stream of [child.stdout, child.stderr]) {
      if (stream !== null) createInterface({ input: stream }).on('line', (l) => options.onLog?.(l));
    }
  }

  /** Starts the process; its handler is imported before it asks for its first invocation. */
  static async start(
    definition: FunctionDefinition,
    options: ContainerOptions,
  ): Promise<Container> {
    const api = await RuntimeApi.start();
    const environment = lambdaEnvironment(definition, {
      ...options,
      runtimeApi: api.address,
      logStreamName: logStreamName(options.now()),
    });
    const child = spawn(
      process.execPath,
      [
        ...lambdaNodeArguments(definition.memorySize),
        BOOTSTRAP,
        String(options.now() - Date.now()),
      ],
      { cwd: definition.codeDirectory, env: environment, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return new Container(definition, options, api, child);
  }

  /** Whether it is running an invocation now. */
  get busy(): boolean {
    return this.#busy;
  }

  /** Whether its process has ended: it takes no more invocations. */
  get dead(): boolean {
    return this.#dead;
  }

  /**
   * Runs one invocation; resolves with the handler's result as JSON text. The function's timeout
   * counts from the moment its runtime takes the invocation: a cold container's Init phase (the
   * bundle's import) is not part of it, and is limited on its own, as Lambda limits it.
   */
  async invoke(payload: string): Promise<string> {
    const requestId = randomUUID();
    if (this.#dead) throw this.#api.initError ?? FunctionError.exited(requestId, null, 'SIGKILL');
    if (this.#busy) throw new Error('a container runs one invocation at a time');
    this.#busy = true;
    const { timeoutSeconds, functionArn } = this.#definition;
    const leave = this.#options.cores?.enter();
    let timer = this.#arm(requestId, INIT_SECONDS);
    const handedOver = () => {
      clearTimeout(timer);
      timer = this.#arm(requestId, timeoutSeconds);
      const now = this.#options.now();
      return { deadlineMs: now + timeoutSeconds * 1000, clockOffsetMs: now - Date.now() };
    };
    try {
      return await this.#api.dispatch({ requestId, payload, functionArn, handedOver });
    } finally {
      clearTimeout(timer);
      leave?.();
      this.#busy = false;
    }
  }

  /** A limit of `seconds`, stretched by the cores' sharing (shared-cores.ts). */
  #arm(requestId: string, seconds: number): NodeJS.Timeout {
    const stretch = this.#options.cores?.stretch ?? 1;
    return setTimeout(() => this.#timedOut(requestId, seconds), seconds * 1000 * stretch);
  }

  /** Ends the process and its Runtime API. */
  async close(): Promise<void> {
    this.#dead = true;
    this.#process.kill('SIGKILL');
    await this.#api.close();
  }

  #timedOut(requestId: string, seconds: number): void {
    const error = FunctionError.timedOut(requestId, seconds);
    this.#api.abandon(() => error);
    void this.close();
  }

  #exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.#dead = true;
    const { initError } = this.#api;
    this.#api.abandon((requestId) => initError ?? FunctionError.exited(requestId, code, signal));
    void this.#api.close();
  }
}
