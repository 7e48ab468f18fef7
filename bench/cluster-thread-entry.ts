/**
 * What runs on the seeded cluster's thread (bench/cluster-thread.ts): the simulated API server,
 * seeded with the nodes and their pods, then answering the parent's requests in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type FakeApiServer, startFakeApiServer } from '../simulator/api-server/server.ts';
import type { ClusterThreadData, ClusterThreadRequest } from './cluster-thread.ts';
import { nodeObject, podObjects, type Seeded, seededNodes } from './seeded-nodes.ts';

/** The kubelet's `nodeStatusReportFrequency`. */
const NODE_STATUS_REPORT_MS = 5 * 60_000;

/**
 * Each node's kubelet reports its status every five minutes, spread over the nodes: a running
 * cluster's nodes change about N/300 times a second even when nothing happens. Returns the stop.
 */
function nodeStatusReports(server: FakeApiServer, nodes: readonly Seeded[]): () => void {
  let next = 0;
  const timer = setInterval(
    () => {
      const name = nodes[next % nodes.length]?.node ?? '';
      next += 1;
      const node = server.store.get('nodes', name);
      if (node === undefined) return;
      const lastHeartbeatTime = new Date().toISOString();
      const conditions = [{ type: 'Ready', status: 'True', lastHeartbeatTime }];
      server.store.update('nodes', { ...node, status: { ...(node.status as object), conditions } });
    },
    Math.max(1, NODE_STATUS_REPORT_MS / Math.max(1, nodes.length)),
  );
  return () => clearInterval(timer);
}

const port = parentPort;
if (port === null) throw new Error('bench/cluster-thread-entry.ts runs as a worker thread');
const data = workerData as ClusterThreadData;
const server = await startFakeApiServer({ namespaces: ['default', 'shop', 'batch'] });
const nodes = seededNodes(data.nodes, data.zones);
for (const s of nodes) {
  server.store.create('nodes', nodeObject(s));
  for (const pod of podObjects(s)) server.store.create('pods', pod);
}
let stopReports = () => {};
port.on('message', async (request: ClusterThreadRequest) => {
  if (request.op === 'create') {
    for (const object of request.objects) server.store.create(request.resource, object);
  } else if (request.op === 'reportNodeStatus') {
    stopReports = nodeStatusReports(server, nodes);
  } else {
    stopReports();
    await server.close();
    port.postMessage({ id: request.id });
    port.close();
    return;
  }
  port.postMessage({ id: request.id });
});
port.postMessage({ url: server.url });
