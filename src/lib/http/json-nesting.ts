/**
 * How deep a JSON text nests its arrays and objects, counted in one pass over the text with a
 * counter rather than a call per level: a body nested a hundred thousand levels costs a loop, not
 * the stack. Brackets inside strings do not count. The text need not be valid JSON, so a reader
 * can take the count before parsing and refuse a body before anything walks it. With `stopAbove`,
 * the count stops as soon as it passes that depth (and returns it), as a reader that only needs to
 * know whether a limit is passed has no use for the rest.
 */
export function jsonNesting(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      // An escaped character, `\"` included, never ends the string.
      if (code === backslash) index += 1;
      else if (code === quote) inString = false;
    } else if (code === quote) {
      inString = true;
    } else if (code === openBracket || code === openBrace) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > stopAbove) return deepest;
    } else if ((code === closeBracket || code === closeBrace) && depth > 0) {
      depth -= 1;
    }
  }
  return deepest;
}

const quote = 0x22;
const backslash = 0x5c;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const openBrace = 0x7b;
const closeBrace = 0x7d;
