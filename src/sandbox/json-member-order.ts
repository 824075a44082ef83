/**
 * The member names of a JSON object's top level, in the order the text gives them, each once where
 * it first appears: the order PHP's `json_decode($body, true)` keeps in its array. JavaScript's
 * objects put integer-like names ("0", "1") first in ascending order whatever the text says, so a
 * message that lists members as the plugin does reads them from here. The text must be valid JSON.
 */
export function topLevelMemberNames(text: string): string[] {
  const names = new Set<string>();
  if (!text.trimStart().startsWith('{')) return [];
  let depth = 0;
  let expectingName = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') {
      const end = stringEnd(text, index);
      if (depth === 1 && expectingName) {
        // A name without an escape is its text; only one with an escape needs JSON to read it.
        const quoted = text.slice(index, end + 1);
        names.add(quoted.includes('\\') ? (JSON.parse(quoted) as string) : quoted.slice(1, -1));
      }
      expectingName = false;
      index = end;
    } else if (character === '{' || character === '[') {
      depth += 1;
      expectingName = depth === 1 && character === '{';
    } else if (character === '}' || character === ']') {
      depth -= 1;
    } else if (character === ',' && depth === 1) {
      expectingName = true;
    }
  }
  return [...names];
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === '"') return index;
  }
  return text.length - 1;
}
