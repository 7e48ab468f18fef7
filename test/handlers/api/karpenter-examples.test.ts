/**
 * Every NodePool and EC2NodeClass of Karpenter v1.14.1's `examples/v1`, filled in as its README
 * says, applied through the API function one document at a time as `kubectl apply` sends them:
 * each is stored as written and its pools report ready, or it is refused at the field named in
 * test/support/karpenter-examples.ts with why. Driven through the middy chain on the in-memory
 * state store.
 */
import { describe, expect, it } from 'vitest';
import { makeMemoryStateStore } from '../../../simulator/memory/memory-state-store.ts';
import { lambdaContext } from '../../../simulator/run/lambda-events.ts';
import { anApiHandler, apiRequest } from '../../support/api-requests.ts';
import {
  ACCEPTED_POOL_EXAMPLES,
  documentsOf,
  type ExampleDocument,
  POOL_EXAMPLES,
  poolExample,
  REFUSED_POOL_EXAMPLES,
} from '../../support/karpenter-examples.ts';

const PATHS: Readonly<Record<string, string>> = {
  EC2NodeClass: '/v1/nodeclasses',
  NodePool: '/v1/nodepools',
};

function setUp() {
  const state = makeMemoryStateStore();
  const { handler } = anApiHandler(state);
  const send = async (method: string, path: string, body?: string) => {
    const event = apiRequest(method, path, body === undefined ? {} : { body });
    const reply = await handler(event, lambdaContext('api-test'));
    return { status: reply.statusCode, body: JSON.parse(String(reply.body)) };
  };
  /** Applies each document, classes first as a pool needs them: the replies in that order. */
  const apply = async (documents: readonly ExampleDocument[]) => {
    const ordered = [...documents].sort((a, b) => a.kind.localeCompare(b.kind));
    const replies = [];
    for (const { kind, name, text } of ordered) {
      replies.push({ kind, ...(await send('PUT', `${PATHS[kind]}/${name}`, text)) });
    }
    return replies;
  };
  return { state, send, apply };
}

describe("the API and Karpenter's example NodePools and EC2NodeClasses", () => {
  it('holds every example of examples/v1 in one table', () => {
    // Assess
    expect(POOL_EXAMPLES).toHaveLength(22);
    expect(REFUSED_POOL_EXAMPLES.every(({ example }) => POOL_EXAMPLES.includes(example))).toBe(
      true,
    );
  });

  it.each(ACCEPTED_POOL_EXAMPLES)(
    'stores %s as written and reports its pools ready',
    async (example) => {
      // Prepare
      const { state, send, apply } = setUp();
      const documents = documentsOf(poolExample(example));

      // Act
      const replies = await apply(documents);

      // Assess
      expect(replies.map((reply) => reply.status)).toEqual(documents.map(() => 201));
      for (const { kind, name, spec } of documents) {
        const stored =
          kind === 'NodePool' ? await state.nodePools.get(name) : await state.nodeClasses.get(name);
        expect(stored?.document.spec).toMatchObject(spec);
        if (kind !== 'NodePool') continue;
        const read = await send('GET', `/v1/nodepools/${name}`);
        expect(read.body.status).toMatchObject({ ready: true });
      }
    },
  );

  it.each(REFUSED_POOL_EXAMPLES)(
    'refuses $example, storing nothing of it: $why',
    async (refusal) => {
      // Prepare
      const { state, apply } = setUp();

      // Act
      const replies = await apply(documentsOf(poolExample(refusal.example)));

      // Assess
      const refused = replies.filter((reply) => reply.status !== 201);
      expect(refused.map((reply) => [reply.status, reply.body.field])).toEqual([
        [400, refusal.field],
      ]);
      expect(refused[0]?.body.error).toMatch(/^body:\d+: /);
      expect(refused[0]?.body.error.endsWith(`${refusal.field}: ${refusal.error}`)).toBe(true);
      const kinds = [
        ...(await state.nodePools.list()).map(() => 'NodePool'),
        ...(await state.nodeClasses.list()).map(() => 'EC2NodeClass'),
      ];
      expect(kinds).not.toContain(refused[0]?.kind);
    },
  );
});
