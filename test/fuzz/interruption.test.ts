/**
 * Fuzzing the interruption function as Lambda invokes it from SQS (its middy chain, the real
 * use-case on the in-memory store, the simulated API server for the cluster): batches of
 * EventBridge events, damaged, mutated and of any shape, never throw and report no failure;
 * a message the function does not act on changes no claim, node or event and wakes nothing.
 */
import { readFileSync } from 'node:fs';
import { Logger } from '@aws-lambda-powertools/logger';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kubernetesClusterFrom } from '../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { parseInterruptionMessage } from '../../functions/handlers/interruption/event.ts';
import { makeInterruptionHandler } from '../../functions/handlers/interruption/handler.ts';
import type { Wake } from '../../functions/ports/wake.ts';
import { handleInterruption } from '../../functions/use-cases/interruption/handle-interruption.ts';
import { kubeConfigFor } from '../../simulator/api-server/kube-config.ts';
import { startFakeApiServer } from '../../simulator/api-server/server.ts';
import { makeMemoryStateStore } from '../../simulator/memory/memory-state-store.ts';
import { eventBridgeSqsEvent, lambdaContext } from '../../simulator/run/lambda-events.ts';
import { seedClaims } from '../handlers/interruption/fixture-claims.ts';
import { aNodePool } from '../support/builders.ts';
import { anyText, FUZZ, FUZZ_TIMEOUT, mutated } from './fuzz-support.ts';

const NOW = new Date('2026-11-24T09:00:30Z');

const FIXTURES = [
  'health-issue',
  'health-scheduled-change-bare-id',
  'health-scheduled-change',
  'rebalance',
  'spot-interruption',
  'state-change-running',
  'state-change-stopping',
].map((name) => {
  const url = new URL(`../handlers/interruption/fixtures/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as unknown;
});

/** SQS bodies: EventBridge events as delivered, mutated, of any JSON shape, or not JSON. */
const bodies = fc.oneof(
  fc.constantFrom(...FIXTURES).map((event) => JSON.stringify(event)),
  ...FIXTURES.map((event) => mutated(event).map((v) => JSON.stringify(v) ?? '')),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  anyText,
);

/** A cluster of the claims' nodes and a store of their claims, fresh for each case. */
async function seeded() {
  const server = await startFakeApiServer({ namespaces: ['default'] });
  const state = makeMemoryStateStore();
  await state.nodePools.create(aNodePool(), 'hash');
  await seedClaims(state, server);
  const wakes: Wake[] = [];
  const logger = new Logger({ serviceName: 'interruption-fuzz', logLevel: 'SILENT' });
  const failures: unknown[] = [];
  logger.error = (...args: unknown[]) => void failures.push(args);
  const handler = makeInterruptionHandler({
    logger,
    handle: (message) =>
      handleInterruption(
        {
          state,
          cluster: kubernetesClusterFrom(kubeConfigFor(server.url), { now: () => NOW }),
          waker: { wake: async (wake) => void wakes.push(wake) },
          clock: { now: () => NOW },
        },
        message,
      ),
  });
  const observed = async () =>
    JSON.stringify([
      await state.nodeClaims.list(),
      await state.nodePools.list(),
      server.store.list('nodes'),
      server.store.list('events', 'default'),
    ]);
  return { handler, wakes, observed, failures, close: () => server.close() };
}

describe('fuzzing the interruption function', () => {
  it('reports no failure for any batch, and changes nothing for messages it does not act on', {
    timeout: FUZZ_TIMEOUT,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(bodies, { minLength: 1, maxLength: 4 }), async (batch) => {
        // Prepare
        const { handler, wakes, observed } = await seeded();
        const before = await observed();
        const actedOn = batch.some((b) => parseInterruptionMessage(b).kind === 'interruption');

        // Act
        const response = await handler(
          eventBridgeSqsEvent(batch),
          lambdaContext('interruption-fuzz'),
        );

        // Assess
        expect(response.batchItemFailures).toEqual([]);
        if (!actedOn) {
          expect(await observed()).toBe(before);
          expect(wakes).toEqual([]);
        }
      }),
      FUZZ,
    );
  });
});
