/**
 * What an operator's `kubectl` sends the simulated API server: JSON over HTTP, or over TLS
 * verified with the cluster's certificate authority, as the administrator. The world's own
 * writes go this way, through validation, defaulting and admission, without loading the
 * Kubernetes client the functions use (in a deployed run, only their processes load it).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ADMINISTRATOR_TOKEN } from '../api-server/administrator-token.ts';
import { SERVING_CERTIFICATE } from '../api-server/serving-certificate.ts';

/** One request; resolves with the status, rejects with the server's answer on anything but 2xx. */
function send(serverUrl: string, method: string, path: string, body: unknown): Promise<number> {
  const url = new URL(path, serverUrl);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        ca: SERVING_CERTIFICATE,
        headers: {
          authorization: `Bearer ${ADMINISTRATOR_TOKEN}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(status);
          else reject(new Error(`kubectl ${method} ${path}: ${status} ${Buffer.concat(chunks)}`));
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(text);
  });
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
