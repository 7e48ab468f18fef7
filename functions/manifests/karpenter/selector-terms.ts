/**
 * The EC2NodeClass selector terms: ORed terms whose fields are ANDed, with the CRD's rules on
 * which fields a term needs and which may not be combined (aws: pkg/apis/v1/ec2nodeclass.go).
 * Karpenter's CEL `!self.all(...)` rules only fail when every term breaks them; the intent, and
 * what its documentation states, is per term, which is how they are checked here.
 */
import * as z from 'zod';
import { checkAlias } from './ami-alias.ts';
import { nonEmpty, patterned } from './fields.ts';

const MAX_TERMS = 30;

/** Tag filters: `'*'` matches any value, `''` matches any resource carrying the key. */
const selectorTags = z.record(z.string(), z.string()).superRefine((tags, ctx) => {
  const keys = Object.keys(tags);
  if (keys.length > 20) {
    ctx.addIssue({ code: 'custom', message: `must have at most 20 tags, got ${keys.length}` });
  }
  if (keys.includes('')) {
    ctx.addIssue({ code: 'custom', message: 'tag keys may not be empty' });
  }
});

interface TermShape {
  readonly required: readonly string[];
  /** Fields that must stand alone in their term, with the fields they exclude. */
  readonly exclusive: Readonly<Record<string, readonly string[]>>;
}

function checkTerm(
  shape: TermShape,
  term: Readonly<Record<string, unknown>>,
  ctx: z.RefinementCtx,
): void {
  const has = (field: string): boolean => term[field] !== undefined;
  if (!shape.required.some(has)) {
    ctx.addIssue({
      code: 'custom',
      message: `a selector term needs at least one of ${shape.required.join(', ')}`,
    });
  }
  for (const [field, excluded] of Object.entries(shape.exclusive)) {
    const clash = excluded.filter(has);
    if (!has(field) || clash.length === 0) continue;
    ctx.addIssue({
      code: 'custom',
      message: `${field} cannot be combined with ${clash.join(', ')} in the same term`,
      path: [field],
    });
  }
}

function termList<T extends z.ZodType>(term: T) {
  return z.array(term).max(MAX_TERMS);
}

const subnetTerm = z
  .strictObject({
    tags: selectorTags.optional(),
    id: patterned(/^subnet-[0-9a-z]+$/, 'a subnet id such as subnet-09fa4a0a8f233a921').optional(),
  })
  .superRefine((term, ctx) =>
    checkTerm({ required: ['tags', 'id'], exclusive: { id: ['tags'] } }, term, ctx),
  );

const securityGroupTerm = z
  .strictObject({
    tags: selectorTags.optional(),
    id: patterned(/^sg-[0-9a-z]+$/, 'a security group id such as sg-063d7acfb4b06c82c').optional(),
    name: z.string().optional(),
  })
  .superRefine((term, ctx) =>
    checkTerm(
      {
        required: ['tags', 'id', 'name'],
        exclusive: { id: ['tags', 'name'], name: ['tags', 'id'] },
      },
      term,
      ctx,
    ),
  );

const amiTerm = z
  .strictObject({
    alias: z.string().max(30).optional(),
    tags: selectorTags.optional(),
    id: patterned(/^ami-[0-9a-z]+$/, 'an AMI id such as ami-0123456789abcdef0').optional(),
    name: z.string().optional(),
    owner: z.string().optional(),
    ssmParameter: z.string().optional(),
  })
  .superRefine((term, ctx) => {
    checkTerm(
      {
        required: ['tags', 'id', 'name', 'alias', 'ssmParameter'],
        exclusive: {
          id: ['alias', 'tags', 'name', 'owner'],
          alias: ['id', 'tags', 'name', 'owner'],
        },
      },
      term,
      ctx,
    );
    if (term.alias !== undefined) checkAlias(term.alias, ctx);
  });

const capacityReservationTerm = z
  .strictObject({
    tags: selectorTags.optional(),
    id: patterned(
      /^cr-[0-9a-z]+$/,
      'a capacity reservation id such as cr-0123456789abcdef0',
    ).optional(),
    ownerID: patterned(/^[0-9]{12}$/, 'a 12-digit AWS account id (quote it in YAML)').optional(),
    instanceMatchCriteria: z.enum(['open', 'targeted']).optional(),
  })
  .superRefine((term, ctx) =>
    checkTerm(
      {
        required: ['tags', 'id', 'instanceMatchCriteria'],
        exclusive: { id: ['tags', 'ownerID', 'instanceMatchCriteria'] },
      },
      term,
      ctx,
    ),
  );

function nonEmptyList(field: string) {
  return (terms: readonly unknown[], ctx: z.RefinementCtx) => {
    if (terms.length === 0) ctx.addIssue({ code: 'custom', message: `${field} may not be empty` });
  };
}

export const subnetSelectorTerms = termList(subnetTerm).superRefine(
  nonEmptyList('subnetSelectorTerms'),
);
export const securityGroupSelectorTerms = termList(securityGroupTerm).superRefine(
  nonEmptyList('securityGroupSelectorTerms'),
);
export const capacityReservationSelectorTerms = termList(capacityReservationTerm);

/** An alias picks the whole AMI set for its family, so it must be the only term. */
export const amiSelectorTerms = termList(amiTerm).superRefine((terms, ctx) => {
  nonEmptyList('amiSelectorTerms')(terms, ctx);
  const aliased = terms.findIndex((term) => term.alias !== undefined);
  if (aliased < 0 || terms.length === 1) return;
  ctx.addIssue({
    code: 'custom',
    message: `alias must be the only amiSelectorTerm, but there are ${terms.length} terms`,
    path: [aliased, 'alias'],
  });
});

/** One of name or id, with the CRD's two CEL messages (aws: ec2nodeclass.go `PlacementGroupSelector`). */
export const placementGroupSelector = z
  .strictObject({
    name: nonEmpty('name').optional(),
    id: patterned(/^pg-[0-9a-z]+$/, 'a placement group id such as pg-0123456789abcdef0').optional(),
  })
  .superRefine((selector, ctx) => {
    if ((selector.name === undefined) !== (selector.id === undefined)) return;
    ctx.addIssue({
      code: 'custom',
      message:
        selector.name === undefined
          ? "expected at least one, got none, ['name', 'id']"
          : "'name' and 'id' are mutually exclusive",
    });
  });
