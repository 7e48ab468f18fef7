/**
 * Every item of every page an SDK paginator yields. A listing that stopped at the first page
 * would silently miss instances or prices; the paginators follow `NextToken` to the end.
 */
export async function collect<TPage, TItem>(
  pages: AsyncIterable<TPage>,
  itemsOf: (page: TPage) => readonly TItem[] | undefined,
): Promise<TItem[]> {
  const items: TItem[] = [];
  for await (const page of pages) items.push(...(itemsOf(page) ?? []));
  return items;
}
