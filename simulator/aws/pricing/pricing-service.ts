/**
 * The Price List API over its JSON protocol (awsJson1_1, `X-Amz-Target:
 * AWSPriceListService.GetProducts`): EC2's products filtered as GetProducts filters them
 * (`TERM_MATCH` and `EQUALS` exact, `CONTAINS`, `ANY_OF` and `NONE_OF` of comma-separated values,
 * on the product's attributes, its family and service code), a page at a time, each product a
 * JSON string in the `aws_v1` format.
 */
import { AwsError, type AwsService } from '../aws-service.ts';
import { jsonRpcService } from '../json/json-rpc-service.ts';
import { ec2Products, type PriceListProduct } from './simulated-price-list.ts';

interface Filter {
  readonly Type?: string;
  readonly Field?: string;
  readonly Value?: string;
}

const PAGE_SIZE = 100;

/** A product with its filterable fields by lower-case name, and its `aws_v1` text once sent. */
interface ListedProduct {
  readonly item: PriceListProduct;
  readonly fields: ReadonlyMap<string, string>;
  text?: string;
}

/**
 * Filter fields are matched without regard to case. The fields, and the text a page sends, are
 * made once per product: a controller's cold pass reads the pages one after another, and the
 * list filtered by looking each field up among every attribute's lower-cased name took 0.1 s of
 * it in a deployed burst.
 */
function listed(item: PriceListProduct): ListedProduct {
  const fields = new Map<string, string>();
  const named = {
    ...item.product.attributes,
    productFamily: item.product.productFamily,
    serviceCode: item.serviceCode,
  };
  for (const [name, value] of Object.entries(named)) {
    const key = name.toLowerCase();
    if (!fields.has(key)) fields.set(key, value);
  }
  return { item, fields };
}

function textOf(product: ListedProduct): string {
  product.text ??= JSON.stringify(product.item);
  return product.text;
}

function passes(item: ListedProduct, filter: Filter): boolean {
  const value = item.fields.get((filter.Field ?? '').toLowerCase());
  const wanted = filter.Value ?? '';
  const listed = wanted.split(',').map((v) => v.trim());
  switch (filter.Type ?? 'TERM_MATCH') {
    case 'TERM_MATCH':
    case 'EQUALS':
      return value === wanted;
    case 'CONTAINS':
      return value?.includes(wanted) ?? false;
    case 'ANY_OF':
      return value !== undefined && listed.includes(value);
    case 'NONE_OF':
      return value === undefined || !listed.includes(value);
    default:
      throw new AwsError('InvalidParameterException', `unknown filter type ${filter.Type}`);
  }
}

/** Page tokens are the offset of the page's first product. */
function offsetOf(token: unknown): number {
  if (token === undefined) return 0;
  const offset = Number(Buffer.from(String(token), 'base64url').toString('utf8'));
  if (!Number.isInteger(offset) || offset < 0) {
    throw new AwsError('InvalidNextTokenException', 'The pagination token is invalid.');
  }
  return offset;
}

/** The region a request asks for; the Price List API answers every region from one endpoint. */
function regionOf(filters: readonly Filter[]): string | undefined {
  return filters.find((f) => f.Field?.toLowerCase() === 'regioncode')?.Value;
}

/** The products a request's filters select, kept while the same filters page through them. */
function selection(defaultRegion: string) {
  const lists = new Map<string, ListedProduct[]>();
  let last: { key: string; products: ListedProduct[] } | undefined;
  return (serviceCode: unknown, filters: readonly Filter[]): ListedProduct[] => {
    if (serviceCode !== 'AmazonEC2') return [];
    const region = regionOf(filters) ?? defaultRegion;
    const key = JSON.stringify([region, filters]);
    if (last?.key === key) return last.products;
    const all = lists.get(region) ?? ec2Products(region).map(listed);
    lists.set(region, all);
    last = { key, products: all.filter((item) => filters.every((f) => passes(item, f))) };
    return last.products;
  };
}

export function pricingService(defaultRegion: string): AwsService {
  const select = selection(defaultRegion);
  return jsonRpcService({
    signingName: 'pricing',
    actionPrefix: 'pricing',
    target: 'AWSPriceListService',
    jsonVersion: '1.1',
    operations: {
      GetProducts: (input) => {
        if (input.FormatVersion !== undefined && input.FormatVersion !== 'aws_v1') {
          throw new AwsError('InvalidParameterException', 'FormatVersion must be aws_v1.');
        }
        const matching = select(input.ServiceCode, (input.Filters ?? []) as Filter[]);
        const size = Math.min(PAGE_SIZE, Number(input.MaxResults ?? PAGE_SIZE));
        const offset = offsetOf(input.NextToken);
        const next = offset + size;
        return {
          FormatVersion: 'aws_v1',
          PriceList: matching.slice(offset, next).map(textOf),
          ...(next < matching.length
            ? { NextToken: Buffer.from(String(next)).toString('base64url') }
            : {}),
        };
      },
    },
  });
}
