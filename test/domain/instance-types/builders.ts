import type { InstanceType } from '../../../functions/domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../../../functions/domain/instance-types/bundled-catalog.ts';
import type { CatalogEntry } from '../../../functions/domain/instance-types/catalog.ts';
import {
  type BuildInstanceTypesOptions,
  buildInstanceTypes,
} from '../../../functions/domain/instance-types/instance-types.ts';
import { onDemandPrices } from '../../../functions/domain/instance-types/prices.ts';
import type { EC2NodeClass } from '../../../functions/domain/node-class.ts';
import type { Requirements } from '../../../functions/domain/requirements/requirements.ts';
import { toNodeSelector } from '../../../functions/domain/requirements/requirements.ts';

export const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'] as const;

export function catalogEntry(name: string): CatalogEntry {
  const entry = BUNDLED_CATALOG.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no bundled instance type ${name}`);
  return entry;
}

export function aNodeClass(spec: EC2NodeClass['spec'] = {}): EC2NodeClass {
  return { metadata: { name: 'default' }, spec };
}

/** One instance type built in us-east-1 with the bundled prices, unless overridden. */
export function buildOne(
  name: string,
  overrides: Partial<BuildInstanceTypesOptions> = {},
): InstanceType {
  const [instanceType] = buildInstanceTypes({
    catalog: [catalogEntry(name)],
    region: 'us-east-1',
    prices: onDemandPrices('us-east-1').prices,
    zones: ZONES,
    ...overrides,
  });
  if (instanceType === undefined) throw new Error(`${name} was not built`);
  return instanceType;
}

/** Requirements as `key → values`, or `DoesNotExist`, for whole-object comparisons. */
export function labelsOf(requirements: Requirements): Record<string, readonly string[] | string> {
  const out: Record<string, readonly string[] | string> = {};
  for (const { key, operator, values } of toNodeSelector(requirements)) {
    out[key] = operator === 'In' ? (values ?? []) : operator;
  }
  return out;
}

export const Mi = 1024 * 1024;
export const Gi = 1024 * Mi;
