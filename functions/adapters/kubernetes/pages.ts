/**
 * Lists read in pages (`limit` and `continue`), as client-go's pager does: a cluster with 20,000
 * pending pods answers in bounded pieces instead of one response the API server must build in
 * memory and a Lambda function must hold twice.
 */

/** 500 is client-go's default page size and kubectl's `--chunk-size`. */
export const DEFAULT_PAGE_SIZE = 500;

export interface PageQuery {
  readonly limit: number;
  readonly _continue?: string;
}

/** The shape of every client-node `V1XxxList`. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly metadata?: { readonly _continue?: string; readonly resourceVersion?: string };
}

/** A whole list, and the resourceVersion its first page was served at, which a watch resumes from. */
export interface WholeList<T> {
  readonly items: T[];
  readonly resourceVersion: string;
}

/** Every item of the list, requesting page after page until the server gives no continue token. */
export async function readList<T>(
  fetchPage: (query: PageQuery) => Promise<Page<T>>,
  pageSize: number,
): Promise<WholeList<T>> {
  const items: T[] = [];
  let resourceVersion: string | undefined;
  let token: string | undefined;
  do {
    const page = await fetchPage(
      token === undefined ? { limit: pageSize } : { limit: pageSize, _continue: token },
    );
    items.push(...page.items);
    // Every page reports the first page's revision: the list is one snapshot.
    resourceVersion ??= page.metadata?.resourceVersion;
    const next = page.metadata?._continue;
    token = next === undefined || next === '' ? undefined : next;
  } while (token !== undefined);
  return { items, resourceVersion: resourceVersion ?? '' };
}

/** Every item of the list, as `readList` reads it. */
export async function readAllPages<T>(
  fetchPage: (query: PageQuery) => Promise<Page<T>>,
  pageSize: number,
): Promise<T[]> {
  return (await readList(fetchPage, pageSize)).items;
}
