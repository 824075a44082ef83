/**
 * Reads `public/_headers`, the response-header file of the common static hosts (Netlify,
 * Cloudflare Pages): a path pattern on its own line, then indented `Name: value` lines, or
 * `! Name` lines that detach a header an earlier matching rule set (Cloudflare Pages). The one
 * reader of that file: tests check it against the discovery settings with it, and the host-like
 * server (src/host/static-host.ts) answers with it the way the production host will.
 */
export interface HeaderRule {
  /** Path pattern; `*` matches any run of characters, including slashes. */
  pattern: string;
  headers: [name: string, value: string][];
  /** Headers this rule removes before adding its own: `! Name`. */
  detached: string[];
  /** 1-based line of the pattern, for error messages. */
  line: number;
}

export class HeadersFileError extends Error {}

export function parseHeadersFile(text: string, fileName = '_headers'): HeaderRule[] {
  const rules: HeaderRule[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    if (!/^\s/.test(raw)) {
      if (!raw.startsWith('/')) throw new HeadersFileError(`${fileName}:${line}: a path must start with "/": ${raw}`);
      rules.push({ pattern: raw.trim(), headers: [], detached: [], line });
      return;
    }
    const current = rules.at(-1);
    const detach = /^\s+!\s*([A-Za-z0-9-]+)\s*$/.exec(raw);
    if (current && detach) {
      current.detached.push(detach[1] as string);
      return;
    }
    const match = /^\s+([A-Za-z0-9-]+):\s*(.+)$/.exec(raw);
    if (!current || !match) throw new HeadersFileError(`${fileName}:${line}: expected "Name: value" under a path: ${raw}`);
    current.headers.push([match[1] as string, (match[2] as string).trim()]);
  });
  return rules;
}

function matches(pattern: string, pathname: string): boolean {
  const expression = pattern
    .split('*')
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${expression}$`).test(pathname);
}

/**
 * The headers a host sends for `pathname`: every matching rule applies in file order, first
 * removing the headers it detaches (set by earlier rules), then adding its values after any left.
 * This is how Cloudflare Pages applies the file, so a rule can replace a value `/*` sets.
 */
export function headersFor(rules: readonly HeaderRule[], pathname: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const rule of rules) {
    if (!matches(rule.pattern, pathname)) continue;
    for (const name of rule.detached) result.delete(name.toLowerCase());
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      result.set(key, [...(result.get(key) ?? []), value]);
    }
  }
  return result;
}

/**
 * The headers as a response carries them: Netlify and Cloudflare Pages join the values of a
 * header that several matching rules set into one comma-separated value, in file order.
 */
export function joinedHeadersFor(rules: readonly HeaderRule[], pathname: string): Map<string, string> {
  return new Map([...headersFor(rules, pathname)].map(([name, values]) => [name, values.join(', ')]));
}

/** Headers a matching rule detaches: the host also drops its own default value of these. */
export function detachedHeadersFor(rules: readonly HeaderRule[], pathname: string): Set<string> {
  return new Set(rules.filter((rule) => matches(rule.pattern, pathname)).flatMap((rule) => rule.detached.map((name) => name.toLowerCase())));
}
