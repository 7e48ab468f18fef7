/**
 * Admission calls delivered to a function behind API Gateway in this process, as the in-process
 * world reaches Nodesmith: the URL's path becomes the HTTP API's proxy event (the token its last
 * segment, as the route `POST /v1/wake/{token}` passes it), and an answer other than 200 is a
 * failed call, as kube-apiserver reads one.
 */
import type { AdmissionHandler } from '../../functions/handlers/audit-relay/admission.ts';
import { admissionEvent, lambdaContext } from '../run/lambda-events.ts';
import type { WebhookTransport } from './validating-admission.ts';

export function relayTransport(handler: AdmissionHandler): WebhookTransport {
  let calls = 0;
  return async (url, review) => {
    const token = new URL(url).pathname.split('/').at(-1) ?? '';
    calls += 1;
    const answer = await handler(
      admissionEvent(JSON.stringify(review), token),
      lambdaContext(`admission-${calls}`),
    );
    if (answer.statusCode !== 200) throw new Error(`the webhook answered ${answer.statusCode}`);
    return JSON.parse(answer.body ?? '');
  };
}
