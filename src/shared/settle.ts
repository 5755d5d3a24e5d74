/** Waits until every promise settles, or `graceMs` passes, whichever comes first (shutdown). */
export async function settleWithin(promises: Iterable<Promise<unknown>>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled([...promises]),
    new Promise((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(timer);
}
