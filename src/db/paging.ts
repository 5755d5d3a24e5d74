/**
 * The rows of one page and the total number of rows. The total is counted only when the page
 * cannot tell it: a page shorter than `limit` that is not empty (or is the first page) ends the
 * list, so the total is `offset + rows.length` without a second query.
 */
export async function pageWithTotal<Row>(
  page: { limit: number; offset: number },
  rows: () => Promise<Row[]>,
  count: () => Promise<number>,
): Promise<{ rows: Row[]; total: number }> {
  const found = await rows();
  const endsHere = found.length < page.limit && (found.length > 0 || page.offset === 0);
  return { rows: found, total: endsHere ? page.offset + found.length : await count() };
}
