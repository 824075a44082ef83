/**
 * Where an identifier may wrap: after an underscore, a hyphen, a slash or a dot, so that
 * `service_transition_not_allowed` or a URL path breaks between its parts and never inside a
 * word. The characters stay as they are; a `<wbr>` after each marks the opportunity.
 */
const breakAfter = /([_\-/.])(?=[^_\-/.])/g;

/** Inline code with plain text inside: no markup, so the text can be edited safely. */
const inlineCode = /(<pre\b[^>]*>\s*)?<code\b([^>]*)>([^<]+)<\/code>/g;

/** A heading that is one identifier and nothing else, such as an action page's title. */
const identifierHeading = /<h([1-6])\b([^>]*)>([^<\s]*[_\-/.][^<\s]*)<\/h\1>/g;

/**
 * An identifier this short (a status such as `pending-cancel`, a header such as `Retry-After`)
 * fits a table cell on one line wherever the screen is wider than a phone, so there it is kept
 * whole (src/styles/narrow-tables.css, class `short-identifier`); on a phone it breaks as the others do.
 */
export const shortIdentifierLength = 16;
export const shortIdentifierClass = 'short-identifier';

const classAttribute = /(\sclass=")([^"]*)"/;

function withShortIdentifierClass(attributes: string): string {
  return classAttribute.test(attributes) ? attributes.replace(classAttribute, `$1$2 ${shortIdentifierClass}"`) : `${attributes} class="${shortIdentifierClass}"`;
}

function markInlineCode(attributes: string, text: string): string {
  const marked = text.replace(breakAfter, '$1<wbr>');
  const short = marked !== text && text.length <= shortIdentifierLength && !/\s/.test(text);
  return `<code${short ? withShortIdentifierClass(attributes) : attributes}>${marked}</code>`;
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
