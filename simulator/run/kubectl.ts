/**
 * What an operator's `kubectl` sends the simulated API server: JSON over HTTP, or over TLS
 * verified with the cluster's certificate authority, as the administrator. The world's own
 * writes go this way, through validation, defaulting and admission, without loading the
 * Kubernetes client the functions use (in a deployed run, only their processes load it).
 */
import { ADMINISTRATOR_TOKEN } from '../api-server/administrator-token.ts';
import { SERVING_CERTIFICATE } from '../api-server/serving-certificate.ts';
import { httpText } from '../http-request.ts';

/** One request; rejects with the server's answer on anything but 2xx. */
async function send(serverUrl: string, method: string, path: string, body: unknown): Promise<void> {
  const answer = await httpText(new URL(path, serverUrl), {
    method,
    headers: {
      authorization: `Bearer ${ADMINISTRATOR_TOKEN}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
    ca: SERVING_CERTIFICATE,
  });
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(`kubectl ${method} ${path}: ${answer.status} ${answer.body}`);
  }
}

/** `kubectl create -f`: a POST of the object to its collection. */
export async function kubectlCreate(
  serverUrl: string,
  path: string,
  object: unknown,
): Promise<void> {
  await send(serverUrl, 'POST', path, object);
}

/** `kubectl delete`: a DELETE with background propagation. */
export async function kubectlDelete(serverUrl: string, path: string): Promise<void> {
  await send(serverUrl, 'DELETE', path, {
    kind: 'DeleteOptions',
    apiVersion: 'v1',
    propagationPolicy: 'Background',
  });
}
