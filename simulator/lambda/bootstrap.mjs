/**
 * The bootstrap of a simulated function's process: what Lambda's Node.js runtime does, in
 * little. It imports the handler named by `_HANDLER` from `LAMBDA_TASK_ROOT`, then loops on the
 * Runtime API (`AWS_LAMBDA_RUNTIME_API`): takes the next invocation, calls the handler with the
 * event and a context, posts the result or the error. The module stays loaded between
 * invocations, so what it keeps at module level lives on in a warm container, as on Lambda.
 *
 * One thing differs from Lambda: time. The world runs on a simulated clock, so `Date.now()` and
 * `new Date()` read the simulated time plus the real time elapsed since the parent last set it.
 * The parent sets it when the process starts (its first argument: simulated minus real epoch
 * milliseconds) and with every invocation (the `Nodesmith-Clock-Offset-Ms` header of the next
 * invocation, which Lambda does not send). Real timers still run in real time, and the deadline
 * the runtime gives is on the same simulated clock, so `getRemainingTimeInMillis` holds.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const RealDate = Date;
let clockOffsetMs = Number(process.argv[2] ?? 0);
const simulatedNow = () => RealDate.now() + clockOffsetMs;

globalThis.Date = new Proxy(RealDate, {
  construct: (target, args, newTarget) =>
    Reflect.construct(target, args.length === 0 ? [simulatedNow()] : args, newTarget),
  apply: () => new RealDate(simulatedNow()).toString(),
  get: (target, key, receiver) =>
    key === 'now' ? simulatedNow : Reflect.get(target, key, receiver),
});

const RUNTIME = `/2018-06-01/runtime`;

/** One call to the Runtime API; resolves with the status, headers and body. */
function call(method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const [host, port] = (process.env.AWS_LAMBDA_RUNTIME_API ?? '').split(':');
    const req = request({ host, port, method, path: `${RUNTIME}${path}`, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An error as Lambda's Node.js runtime reports it. */
function errorBody(error, fallbackType) {
  const isError = error instanceof Error;
  return JSON.stringify({
    errorType: isError ? error.name || fallbackType : fallbackType,
    errorMessage: isError ? error.message : String(error),
    trace: isError && typeof error.stack === 'string' ? error.stack.split('\n') : [],
  });
}

async function reportInitError(error, type) {
  await call('POST', '/init/error', errorBody(error, type), {
    'Lambda-Runtime-Function-Error-Type': type,
  });
  process.exit(1);
}

/** `file.export` from the task root: the file as `.mjs`, `.js` or `.cjs`, as Lambda looks. */
async function loadHandler() {
  const spec = process.env._HANDLER ?? '';
  const dot = spec.indexOf('.');
  const [file, name] = [spec.slice(0, dot), spec.slice(dot + 1)];
  const root = process.env.LAMBDA_TASK_ROOT ?? '.';
  let module;
  for (const extension of ['.mjs', '.js', '.cjs']) {
    try {
      module = await import(pathToFileURL(join(root, `${file}${extension}`)).href);
      break;
    } catch (error) {
      if (error?.code !== 'ERR_MODULE_NOT_FOUND')
        return reportInitError(error, 'Runtime.UserCodeSyntaxError');
    }
  }
  if (module === undefined) {
    return reportInitError(new Error(`Cannot find module '${file}'`), 'Runtime.ImportModuleError');
  }
  const handler = module[name];
  if (typeof handler !== 'function') {
    return reportInitError(
      new Error(`${spec} is undefined or not exported`),
      'Runtime.HandlerNotFound',
    );
  }
  return handler;
}

function contextOf(headers) {
  const deadlineMs = Number(headers['lambda-runtime-deadline-ms']);
  return {
    awsRequestId: headers['lambda-runtime-aws-request-id'],
    invokedFunctionArn: headers['lambda-runtime-invoked-function-arn'],
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadlineMs - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function runInvocations(handler) {
  for (;;) {
    const next = await call('GET', '/invocation/next');
    const requestId = next.headers['lambda-runtime-aws-request-id'];
    clockOffsetMs = Number(next.headers['nodesmith-clock-offset-ms'] ?? clockOffsetMs);
    process.env._X_AMZN_TRACE_ID = next.headers['lambda-runtime-trace-id'] ?? '';
    try {
      const result = await handler(JSON.parse(next.body), contextOf(next.headers));
      await call('POST', `/invocation/${requestId}/response`, JSON.stringify(result ?? null));
    } catch (error) {
      await call('POST', `/invocation/${requestId}/error`, errorBody(error, 'Error'), {
        'Lambda-Runtime-Function-Error-Type': 'Runtime.UnhandledError',
      });
    }
  }
}

await runInvocations(await loadHandler());
