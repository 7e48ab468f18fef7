/**
 * How a streamed list that ends without its bookmark is read: a server that sent nothing
 * ignores `sendInitialEvents` and is refused for good (the kind is listed from then on); one
 * that sent part of the state was cut off, and only that read fails.
 */
import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { KubernetesApis } from '../../../functions/adapters/kubernetes/clients.ts';
import { fromV1Node } from '../../../functions/adapters/kubernetes/mappers.ts';
import type { ReflectedKind } from '../../../functions/adapters/kubernetes/reflected-kind.ts';
import { streamList } from '../../../functions/adapters/kubernetes/streamed-list.ts';
import type { Node } from '../../../functions/domain/node.ts';

const NODES: ReflectedKind<V1Node, Node> = {
  resource: 'nodes',
  path: '/api/v1/nodes',
  model: 'V1Node',
  list: () => Promise.reject(new Error('not listed here')),
  map: fromV1Node,
};

/** A server whose stream sends `events`, then ends the response as a finished watch does. */
function aStreamEnding(events: readonly [string, object][]): KubernetesApis {
  const watch = {
    watch: async (
      _path: string,
      _query: object,
      onEvent: (type: string, object: unknown) => void,
      onDone: (err: unknown) => void,
    ) => {
      setImmediate(() => {
        for (const [type, object] of events) onEvent(type, object);
        onDone(null);
      });
      return new AbortController();
    },
  };
  return { watch } as unknown as KubernetesApis;
}

const aNode = (name: string, resourceVersion: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, resourceVersion },
});

describe('a streamed list that ends without its bookmark', () => {
  it('is a refusal when the server sent nothing, as one ignoring sendInitialEvents does', async () => {
    const streamed = await streamList(aStreamEnding([]), NODES, { target: 7 });
    expect(streamed).toEqual({ refused: 'the server ended the stream without the state' });
  });

  it('fails only this read when the server sent part of the state', async () => {
    const apis = aStreamEnding([
      ['ADDED', aNode('n1', '5')],
      ['ADDED', aNode('n2', '6')],
    ]);
    await expect(streamList(apis, NODES, { target: 7 })).rejects.toThrow(
      'streaming nodes: the stream ended after 2 objects',
    );
  });

  it('reads the state when its bookmark came', async () => {
    const apis = aStreamEnding([
      ['ADDED', aNode('n1', '5')],
      [
        'BOOKMARK',
        {
          kind: 'Node',
          metadata: { resourceVersion: '8', annotations: { 'k8s.io/initial-events-end': 'true' } },
        },
      ],
    ]);
    const streamed = await streamList(apis, NODES, { target: 7 });
    expect(streamed !== undefined && 'kept' in streamed && streamed.kept.revision).toBe(8);
  });
});
