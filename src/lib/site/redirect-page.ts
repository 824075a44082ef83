/**
 * A page that only sends the reader on, for a static host that cannot answer with a redirect
 * status: Astro's own (`redirects` in the configuration) had no language, a refresh whose
 * `content` lacked the space the HTML standard asks for after the `;`, and no policy. This one
 * is a whole document: `lang`, the charset, the document policy of every page (it needs no script
 * and no style), a refresh as the standard writes it, and a link for a reader whose browser does
 * not follow the refresh.
 */
import { escapeMarkup } from '../http/escape-markup.ts';
import { documentPolicyDirectives } from './content-security-policy.ts';


export interface RedirectPage {
  /** Where the reader goes: a path of this site. */
  to: string;
  /** What is there, in words, for the link and the title. */
  label: string;
  /** The site's origin, for the canonical link. */
  siteUrl: string;
}

export function redirectPageHtml({ to, label, siteUrl }: RedirectPage): string {
  const canonical = new URL(to, siteUrl).href;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="content-security-policy" content="${escapeMarkup(documentPolicyDirectives.join('; '))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Redirecting to ${escapeMarkup(label)}</title>`,
    `<meta http-equiv="refresh" content="0; url=${escapeMarkup(to)}">`,
    '<meta name="robots" content="noindex">',
    `<link rel="canonical" href="${escapeMarkup(canonical)}">`,
    '</head>',
    `<body><p>This address leads to <a href="${escapeMarkup(to)}">${escapeMarkup(label)}</a>.</p></body>`,
    '</html>',
    '',
  ].join('\n');
}
