/**
 * The API function refuses hostile documents with a 400 that names the line and field, and stores
 * nothing: alias bombs, deep nesting, keys that name a prototype. Driven through its middy chain
 * as Lambda invokes it, on the in-memory state store.
 */
import { describe, expect, it } from 'vitest';
import { makeMemoryStateStore } from '../../../simulator/memory/memory-state-store.ts';
import { lambdaContext } from '../../../simulator/run/lambda-events.ts';
import { anApiHandler, apiRequest } from '../../support/api-requests.ts';
import { aliasChain, nested } from '../../support/hostile-documents.ts';

function setUp() {
  const state = makeMemoryStateStore();
  const { handler, wakes } = anApiHandler(state);
  const put = async (path: string, body: string) => {
    const reply = await handler(apiRequest('PUT', path, { body }), lambdaContext('api-test'));
    return { status: reply.statusCode, body: JSON.parse(String(reply.body)) };
  };
  const stored = async () => ({
    nodePools: await state.nodePools.list(),
    nodeClasses: await state.nodeClasses.list(),
    limits: await state.clusterLimits.list(),
  });
  return { put, stored, wakes };
}

const NOTHING = { nodePools: [], nodeClasses: [], limits: [] };

describe('the API under hostile documents', () => {
  it('refuses a NodePool whose metadata aliases half a million nodes, storing nothing', async () => {
    // Prepare: six levels stay cheap for a reader that expands them, as today's main does.
    const { put, stored, wakes } = setUp();

    // Act
    const reply = await put('/v1/nodepools/default', aliasChain(6));

    // Assess
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(/^body:\d+: metadata\.labels\.a\d.*: aliases repeat more/);
    expect(reply.body).toMatchObject({ field: expect.stringMatching(/^metadata\.labels/) });
    expect(await stored()).toEqual(NOTHING);
    expect(wakes).toEqual([]);
  });

  it('refuses 5,000 nested lists in a NodePool with a 400 naming the field, JSON or YAML', async () => {
    // Prepare
    const { put, stored } = setUp();
    const deep = nested('[', ']', 5000);
    const yaml = `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\n  labels:\n    x: ${deep}\nspec: {}\n`;
    const json = `{"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default","labels":{"x":${deep}}},"spec":{}}`;

    // Act
    const replies = [
      await put('/v1/nodepools/default', yaml),
      await put('/v1/nodepools/default', json),
    ];

    // Assess
    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(reply.body.error).toContain('nested deeper than 100 levels');
      expect(reply.body.field).toMatch(/^metadata\.labels\.x\[0\]/);
      expect(reply.body.line).toBeGreaterThan(0);
    }
    expect(await stored()).toEqual(NOTHING);
  });

  it.each([
    ['__proto__', '/v1/nodepools/default'],
    ['constructor', '/v1/nodeclasses/default'],
    ['prototype', '/v1/limits'],
  ])('refuses a %s key with a 400 naming it, rather than dropping it', async (key, path) => {
    // Prepare
    const { put, stored } = setUp();
    const body = `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\n  labels:\n    ${key}: {}\n`;

    // Act
    const reply = await put(path, body);

    // Assess
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ field: `metadata.labels.${key}`, line: 6 });
    expect(reply.body.error).toContain(`"${key}" is not allowed as a key`);
    expect(await stored()).toEqual(NOTHING);
  });
});
