/** Containers as the scheduler sees them: name, resource requests and host ports. */
import type { Container, ContainerPort } from '../../domain/pod.ts';
import { EMPTY } from '../../domain/resources.ts';
import {
  type At,
  asFields,
  at,
  defined,
  optionalEnum,
  optionalFields,
  optionalInteger,
  optionalList,
  optionalString,
  requiredInteger,
  requiredString,
} from './fields.ts';
import { readRequests } from './resource-list.ts';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const;

export function readContainer(item: unknown, position: At): Container {
  const fields = asFields(item, position);
  const resources = optionalFields(fields, 'resources', position);
  return defined({
    name: requiredString(fields, 'name', position),
    requests: resources === undefined ? EMPTY : readRequests(resources, at(position, 'resources')),
    ports: optionalList(fields, 'ports', position, readContainerPort),
  });
}

/** An init container with `restartPolicy: Always` is a native sidecar: it keeps running beside the app. */
export function readInitContainer(item: unknown, position: At): Container {
  const container = readContainer(item, position);
  const restartPolicy = optionalString(asFields(item, position), 'restartPolicy', position);
  return restartPolicy === 'Always' ? { ...container, restartPolicy } : container;
}

function readContainerPort(item: unknown, position: At): ContainerPort {
  const fields = asFields(item, position);
  return defined({
    containerPort: requiredInteger(fields, 'containerPort', position),
    hostPort: optionalInteger(fields, 'hostPort', position),
    hostIP: optionalString(fields, 'hostIP', position),
    protocol: optionalEnum(fields, 'protocol', position, PROTOCOLS),
  });
}
