/**
 * Where an identifier may wrap: after an underscore, a hyphen, a slash, a dot or a URL's `?`, so
 * that `service_transition_not_allowed` or a URL path breaks between its parts and never inside a
 * word (a browser would otherwise break after the `?` too). The characters stay as they are; a
 * `<wbr>` after each marks the opportunity.
 */
const breakAfter = /([_\-/.?])(?=[^_\-/.?])/g;

/** Inline code with plain text inside: no markup, so the text can be edited safely. */
const inlineCode = /(<pre\b[^>]*>\s*)?<code\b([^>]*)>([^<]+)<\/code>/g;

/** A heading that is one identifier and nothing else, such as an action page's title. */
const identifierHeading = /<h([1-6])\b([^>]*)>([^<\s]*[_\-/.][^<\s]*)<\/h\1>/g;

/**
 * Wider than a phone every identifier (inline code without a space) fits its line and its table
 * cell whole, so there it is kept whole: src/styles/narrow-tables.css, class `whole-identifier`,
 * takes its `<wbr>`s out of the layout. On a phone it breaks at them, and only at them.
 */
export const wholeIdentifierClass = 'whole-identifier';

/**
 * An identifier longer than this (a full URL such as the server card's) would make a two-column
 * table wider than its column at 1280 px, so it is kept whole only from 90rem (1440 px) on and
 * below that breaks at its `<wbr>`s; tests/e2e/layout.spec.ts measures both widths.
 */
export const longIdentifierLength = 48;
export const longIdentifierClass = 'long-identifier';

const classAttribute = /(\sclass=")([^"]*)"/;

function withClass(attributes: string, names: string): string {
  return classAttribute.test(attributes) ? attributes.replace(classAttribute, `$1$2 ${names}"`) : `${attributes} class="${names}"`;
}

function markInlineCode(attributes: string, text: string): string {
  const marked = text.replace(breakAfter, '$1<wbr>');
  if (marked === text || /\s/.test(text)) return `<code${attributes}>${marked}</code>`;
  const names = text.length > longIdentifierLength ? `${wholeIdentifierClass} ${longIdentifierClass}` : wholeIdentifierClass;
  return `<code${withClass(attributes, names)}>${marked}</code>`;
}

/** A snake_case identifier inside prose, such as `subscription_id` in "cancel_subscription without subscription_id". */
const identifierInProse = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

/** Text cut into its prose and the identifiers in it, for a component to put the latter in `<code>`. */
export function identifierParts(text: string): { text: string; code: boolean }[] {
  const parts: { text: string; code: boolean }[] = [];
  let last = 0;
  for (const match of text.matchAll(identifierInProse)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index), code: false });
    parts.push({ text: match[0], code: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), code: false });
  return parts;
}

/**
 * Marks the break opportunities of every inline `<code>` of a page, and of every heading that is
 * one identifier (an action page's title is its identifier, wider than a phone at that size).
 * Code blocks (`<pre>`) are left alone: their lines wrap on their own, and what a reader copies
 * must stay the same.
 */
export function markIdentifierBreaks(html: string): string {
  return html
    .replace(inlineCode, (whole, pre: string | undefined, attributes: string, text: string) => (pre === undefined ? markInlineCode(attributes, text) : whole))
    .replace(identifierHeading, (_whole, level: string, attributes: string, text: string) => `<h${level}${attributes}>${text.replace(breakAfter, '$1<wbr>')}</h${level}>`);
}
