/** A pod as a workload's controller stamps it out of the pod template. */
import { asObject, namespaceOf, type PlainObject } from './plain-object.ts';

export interface PodStamp {
  readonly name: string;
  readonly owner: PlainObject;
  readonly labels?: PlainObject;
  /** Fields of the pod spec that replace the template's. */
  readonly spec?: PlainObject;
}

/** The template's labels, annotations and spec, with the controller's name, labels and owner. */
export function podFromTemplate(
  workload: PlainObject,
  template: PlainObject,
  stamp: PodStamp,
): PlainObject {
  const templateMeta = asObject(template.metadata);
  return {
    metadata: {
      name: stamp.name,
      namespace: namespaceOf(workload),
      labels: { ...asObject(templateMeta.labels), ...stamp.labels },
      ...(templateMeta.annotations ? { annotations: templateMeta.annotations } : {}),
      ownerReferences: [stamp.owner],
    },
    spec: { ...asObject(template.spec), ...stamp.spec },
    status: { phase: 'Pending' },
  };
}
