/**
 * Maps `items` through `fn` with at most `limit` calls in flight, keeping input order. Grep and
 * Glob open thousands of files; an unbounded Promise.all would hold that many descriptors open
 * at once and hit EMFILE.
 * @throws the first rejection of `fn` (remaining calls still settle; their results are dropped).
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      results[index] = await fn(items[index], index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
