/**
 * The DynamoDB Local harness must leave no java process behind: not after `stop()`, and not
 * when the test process dies without running any hook.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeLocalClient, startDynamoDbLocal } from '../../support/dynamodb-local.ts';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (isRunning(pid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !isRunning(pid);
}

/** A child node compiling the harness, then java starting: tens of seconds on a loaded machine. */
const START_IN_CHILD_MS = 90_000;

/** A separate node process that starts DynamoDB Local, prints the java pid and waits. */
async function startInChildProcess() {
  const harness = fileURLToPath(new URL('../../support/dynamodb-local.ts', import.meta.url));
  const script = `const { startDynamoDbLocal } = await import(${JSON.stringify(harness)});
const local = await startDynamoDbLocal();
console.log(local.pid);
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return { child, javaPid: Number(chunk.toString().trim()) };
}

describe('DynamoDB Local harness', () => {
  it('answers once started and leaves no java process after stop', async () => {
    // Prepare
    const local = await startDynamoDbLocal();
    const client = makeLocalClient(local.endpoint);
    // Act
    const answer = await client.send(new ListTablesCommand({}));
    client.destroy();
    await local.stop();
    // Assess
    expect(answer.TableNames).toEqual([]);
    expect(local.pid !== undefined && isRunning(local.pid)).toBe(false);
  });

  it(
    'kills java when the process that started it is killed outright',
    async () => {
      // Prepare
      const { child, javaPid } = await startInChildProcess();
      expect(isRunning(javaPid)).toBe(true);
      // Act
      child.kill('SIGKILL');
      // Assess
      expect(await waitUntilGone(javaPid, 10_000)).toBe(true);
    },
    START_IN_CHILD_MS,
  );
});
