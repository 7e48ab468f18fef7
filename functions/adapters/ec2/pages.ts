/**
 * Follows `NextToken` until the last page. EC2, SSM and Pricing all paginate this way, and a
 * listing that stopped at the first page would silently miss instances or prices.
 */
interface Paged {
  readonly NextToken?: string | undefined;
}

export async function allPages<TOutput extends Paged, TItem>(
  fetchPage: (nextToken: string | undefined) => Promise<TOutput>,
  itemsOf: (page: TOutput) => readonly TItem[] | undefined,
): Promise<TItem[]> {
  const items: TItem[] = [];
  let nextToken: string | undefined;
  do {
    const page = await fetchPage(nextToken);
    items.push(...(itemsOf(page) ?? []));
    nextToken = page.NextToken === '' ? undefined : page.NextToken;
  } while (nextToken !== undefined);
  return items;
}
