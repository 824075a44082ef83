/**
 * JSON pointers (RFC 6901) in their URI-fragment form, `#/paths/~1action/post`: the one codec the
 * model, the gate and the changelog use. Inside a segment `~1` stands for `/` and `~0` for `~`;
 * the fragment form may also percent-encode characters (RFC 6901, section 6).
 */

/** Escapes one segment: `~` first, so that the `~` of a `~1` is not escaped again. */
export function encodePointerSegment(segment: string | number): string {
  return String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Decodes the percent-escapes of a segment that are valid UTF-8, and leaves any other `%` as it
 * is: a key such as `100%` is a name, not an error.
 */
function decodePercent(segment: string): string {
  return segment.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Unescapes one segment: `~1` first, so that `~01` reads as `~1` and not as `/`. */
export function decodePointerSegment(segment: string): string {
  return decodePercent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
}

/** `#/paths/~1action/post` as `['paths', '/action', 'post']`; `#` and `#/` are the whole document. */
export function pointerSegments(pointer: string): string[] {
  const body = pointer.replace(/^#\/?/, '');
  if (body === '') return [];
  return body.split('/').map(decodePointerSegment);
}

/** `['paths', '/action', 'post']` as `#/paths/~1action/post`. */
export function pointerFrom(segments: readonly (string | number)[]): string {
  return `#/${segments.map(encodePointerSegment).join('/')}`;
}

/** A pointer with segments appended, each escaped. */
export function childPointer(pointer: string, ...segments: (string | number)[]): string {
  return [pointer, ...segments.map(encodePointerSegment)].join('/');
}
