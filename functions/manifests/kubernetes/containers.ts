/** Containers as the scheduler sees them: name, resource requests and host ports. */
import * as z from 'zod';
import type { Container, ContainerPort } from '../../domain/pod.ts';
import { requests } from './resource-list.ts';
import { defined, integer, listOf, oneOf, optional, text } from './schema.ts';

const containerPort = z
  .object({
    containerPort: integer,
    hostPort: optional(integer),
    hostIP: optional(text),
    protocol: optional(oneOf(['TCP', 'UDP', 'SCTP'])),
  })
  .transform((port): ContainerPort => defined(port));

const containerShape = {
  name: text,
  resources: requests,
  ports: listOf(containerPort),
};

export const container = z
  .object(containerShape)
  .transform(
    ({ name, resources, ports }): Container => defined({ name, requests: resources, ports }),
  );

/** An init container with `restartPolicy: Always` is a native sidecar: it keeps running beside the app. */
export const initContainer = z
  .object({ ...containerShape, restartPolicy: optional(text) })
  .transform(({ name, resources, ports, restartPolicy }): Container => {
    const container = defined({ name, requests: resources, ports });
    return restartPolicy === 'Always' ? { ...container, restartPolicy } : container;
  });
