/** Items per page of every paginated list (spec §8): fixed, not a query parameter. */
export const PAGE_SIZE = 50;

export type PageParams = Record<string, string | number | boolean | null>;

export interface Page<T> {
  items: T[];
  next_page_params: PageParams | null;
}

/**
 * Builds a page from rows read with `limit: PAGE_SIZE + 1`: the extra row only says whether a
 * next page exists; `next_page_params` come from the last item shown, so the next request
 * starts right after it whatever was added meanwhile.
 */
export async function pageOf<R, T>(
  rows: R[],
  render: (shown: R[]) => T[] | Promise<T[]>,
  params: (last: R) => PageParams,
  size = PAGE_SIZE,
): Promise<Page<T>> {
  const shown = rows.length > size ? rows.slice(0, size) : rows;
  const items = await render(shown);
  return { items, next_page_params: rows.length > size ? params(shown[shown.length - 1]) : null };
}
