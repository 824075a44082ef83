/**
 * Quotes a string for a POSIX shell: inside single quotes nothing is special but the quote itself.
 * A module of its own, so that the page's "Try it" panel quotes its curl command the way the curl
 * samples do without bundling the samples.
 */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
