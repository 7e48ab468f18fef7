/**
 * One HTTP request from the simulation's own side (an operator's kubectl, kube-apiserver's
 * webhook client): the body sent whole, the answer read whole as text. `http:` or `https:` by
 * the URL; a rejection only when the request itself fails, whatever the status.
 */
import { type Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Kept-alive connections to reuse, as a long-lived client keeps them. */
  readonly agent?: Agent;
  /** The certificate authority an `https:` server's certificate is verified with. */
  readonly ca?: string;
}

export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

export function httpText(url: URL, sent: HttpRequest): Promise<HttpAnswer> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = { ...sent.headers, 'content-length': String(Buffer.byteLength(sent.body)) };
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: sent.method,
        headers,
        ...(sent.agent === undefined ? {} : { agent: sent.agent }),
        ...(sent.ca === undefined ? {} : { ca: sent.ca }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}
