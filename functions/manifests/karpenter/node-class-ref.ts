/** NodeClassReference: all three fields required and non-empty in v1 (core: nodeclaim.go). */
import * as z from 'zod';
import { nonEmpty } from './fields.ts';

export const nodeClassRef = z.strictObject({
  group: nonEmpty('group').refine((group) => !group.includes('/'), {
    error: 'group is an API group such as karpenter.k8s.aws, without a version or "/"',
  }),
  kind: nonEmpty('kind'),
  name: nonEmpty('name'),
});
