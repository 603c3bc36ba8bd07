/** What `takeHead` read: the chunks taken, and whether the source ended within them. */
export interface StreamHead {
  chunks: Buffer[];
  ended: boolean;
}

/**
 * The first chunks of a byte stream, taken until `enough` says they suffice (or the stream ends), for a
 * reader that decides from a file's head (its format, its delimiter) before the rest flows on from the
 * same iterator. The chunks taken are to be passed on before the iterator's next ones.
 */
export async function takeHead(
  source: { next(): Promise<IteratorResult<Buffer>> },
  enough: (chunks: readonly Buffer[], bytes: number) => boolean,
): Promise<StreamHead> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  while (!enough(chunks, bytes)) {
    const next = await source.next();
    if (next.done) return { chunks, ended: true };
    chunks.push(next.value);
    bytes += next.value.length;
  }
  return { chunks, ended: false };
}
