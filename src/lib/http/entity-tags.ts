/**
 * Whether `If-None-Match` names the representation's tag: `*`, or one of its tags compared weakly
 * (RFC 9110, section 13.1.2), so a `W/` prefix a proxy added does not prevent the match.
 */
export function noneMatchHits(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined || ifNoneMatch === null) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}
