/**
 * Fuzzing the pools and limits API as Lambda invokes it (its middy chain, the in-memory state
 * store, the simulated API server for the dry run): any method, path, body, encoding, version
 * and If-Match gets an answer below 500; a refusal says what was wrong, changes nothing stored
 * and wakes nothing.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import fc from 'fast-check';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundledInstanceTypes } from '../../functions/adapters/bundled/bundled-instance-types.ts';
import { kubernetesClusterFrom } from '../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { onDemandPrices } from '../../functions/domain/instance-types/prices.ts';
import { liveDryRun } from '../../functions/use-cases/plan/live-dry-run.ts';
import { kubeConfigFor } from '../../simulator/api-server/kube-config.ts';
import { type FakeApiServer, startFakeApiServer } from '../../simulator/api-server/server.ts';
import { makeMemoryStateStore } from '../../simulator/memory/memory-state-store.ts';
import { lambdaContext } from '../../simulator/run/lambda-events.ts';
import { anApiHandler, apiRequest } from '../support/api-requests.ts';
import { CLUSTER_LIMITS, SHOP_NODE_CLASS, SHOP_NODE_POOL } from '../support/karpenter-documents.ts';
import {
  anyText,
  damaged,
  FUZZ,
  FUZZ_TIMEOUT,
  hostileDocument,
  hostileKey,
  mutated,
} from './fuzz-support.ts';

let server: FakeApiServer;
beforeAll(async () => {
  server = await startFakeApiServer({ namespaces: ['default'] });
});
afterAll(async () => {
  await server.close();
});

const instanceTypes = new BundledInstanceTypes({
  region: 'us-east-1',
  prices: onDemandPrices('us-east-1'),
});

/** A handler over a store holding one NodePool, one EC2NodeClass and the cluster's limits. */
async function seeded() {
  const state = makeMemoryStateStore();
  const { handler, wakes } = anApiHandler(state, {
    dryRun: () =>
      liveDryRun({
        cluster: kubernetesClusterFrom(kubeConfigFor(server.url)),
        state,
        instanceTypes,
        region: 'us-east-1',
      }),
  });
  const call = (event: APIGatewayProxyEventV2) => handler(event, lambdaContext('api-fuzz'));
  await call(apiRequest('PUT', '/v1/nodeclasses/default', { body: SHOP_NODE_CLASS }));
  await call(apiRequest('PUT', '/v1/nodepools/default', { body: SHOP_NODE_POOL }));
  await call(apiRequest('PUT', '/v1/limits', { body: CLUSTER_LIMITS }));
  wakes.length = 0;
  const stored = async () =>
    JSON.stringify([
      await state.nodePools.list(),
      await state.nodeClasses.list(),
      await state.clusterLimits.list(),
      await state.nodeClaims.list(),
    ]);
  return { call, wakes, stored };
}

const DOCUMENTS = [SHOP_NODE_POOL, SHOP_NODE_CLASS, CLUSTER_LIMITS];

const names = fc.oneof(
  fc.constantFrom('default', 'gpu', 'a', 'A', '-a', 'a..b', '%2e%2e', '..', 'x'.repeat(300)),
  hostileKey,
  anyText.filter((s) => !s.includes('/')),
);

const paths = fc.oneof(
  fc.tuple(fc.constantFrom('/v1/nodepools', '/v1/nodeclasses'), names).map(([c, n]) => `${c}/${n}`),
  fc.constantFrom('/v1/nodepools', '/v1/nodeclasses', '/v1/limits', '/v1/status', '/v1/plan'),
  fc.constantFrom(
    '/v1/nodepools/',
    '/v1/limits/',
    '/v1',
    '/',
    '/v2/nodepools/default',
    '//v1/limits',
  ),
  anyText.map((s) => `/${s}`),
);

const bodies = fc.oneof(
  fc.constantFrom(...DOCUMENTS),
  ...DOCUMENTS.map(damaged),
  ...DOCUMENTS.map((d) => mutated(load(d)).map((v) => JSON.stringify(v) ?? '')),
  hostileDocument,
  anyText,
);

const versions = fc.oneof(
  fc.constantFrom('"1"', '1', 'W/"1"', '"2"', '"0"', '""', '*', '"-1"', '"1e3"', '9'.repeat(30)),
  anyText,
);

const requests = fc
  .record(
    {
      method: fc.constantFrom('GET', 'PUT', 'DELETE', 'POST', 'PATCH', 'HEAD', 'OPTIONS', 'get'),
      path: paths,
      body: bodies,
      base64: fc.constantFrom('no', 'yes', 'garbage'),
      ifMatch: versions,
    },
    { requiredKeys: ['method', 'path'] },
  )
  .map(({ method, path, body, base64, ifMatch }) =>
    apiRequest(method, path, {
      ...(body === undefined ? {} : encoded(body, base64 ?? 'no')),
      ...(ifMatch === undefined ? {} : { headers: { 'if-match': ifMatch } }),
    }),
  );

function encoded(body: string, how: string) {
  if (how === 'no') return { body };
  if (how === 'yes') return { body: Buffer.from(body).toString('base64'), isBase64Encoded: true };
  return { body, isBase64Encoded: true };
}

describe('fuzzing the API', () => {
  it('answers below 500, and a refusal names what was wrong, stores nothing and wakes nothing', {
    timeout: FUZZ_TIMEOUT,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        // Prepare
        const { call, wakes, stored } = await seeded();
        const before = await stored();

        // Act
        const reply = await call(request);

        // Assess
        const status = reply.statusCode ?? 0;
        expect(status).toBeGreaterThanOrEqual(200);
        expect(status).toBeLessThan(500);
        const body = JSON.parse(String(reply.body));
        if (status >= 400) {
          expect(typeof body.error).toBe('string');
          expect(body.error.trim()).not.toBe('');
          expect(body.error).not.toMatch(/undefined|\[object Object\]|call stack/i);
          expect(await stored()).toBe(before);
          expect(wakes).toEqual([]);
        }
      }),
      FUZZ,
    );
  });
});
