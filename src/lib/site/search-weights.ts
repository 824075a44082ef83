/**
 * Pagefind's weights (0 to 10, 1 by default) for the words of a page that owns a term and for
 * the pages that only repeat it: the errors guide for an error code, the endpoint page for a
 * field, the authentication page for the key rank first; the eight action pages, which repeat the
 * same codes and bodies, rank below them.
 */
export const searchWeights = {
  canonical: 10,
  repeated: 0.2,
} as const;
