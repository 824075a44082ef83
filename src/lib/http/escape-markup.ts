/**
 * Escapes text for HTML or XML, valid in an element's content and in a double-quoted attribute
 * alike: the one escaper of the sandbox's host pages, the diagrams, the redirect page and the
 * conformance suite's JUnit report.
 */
export function escapeMarkup(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
