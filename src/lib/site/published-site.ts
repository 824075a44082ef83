import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SpecRuleId } from '../spec-rules.ts';
import { parseHeadersFile } from './static-headers.ts';

/** Something the documentation domain must never publish, found in a built site. */
export interface PublishedSiteViolation {
  /** The offending file, relative to the built site's directory. */
  file: string;
  line?: number;
  rule: SpecRuleId;
  message: string;
}

/**
 * Routes that would make the documentation domain look like an endpoint or an authorisation
 * server. `/wp-json/` is where WordPress answers REST requests; the three well-known documents
 * are OAuth 2.0 authorisation server metadata (RFC 8414), OpenID Connect discovery and OAuth
 * protected resource metadata (RFC 9728).
 */
const forbiddenRoutes: { matches(route: string): boolean; rule: SpecRuleId; why: string }[] = [
  {
    matches: (route) => route === '/wp-json' || route.startsWith('/wp-json/'),
    rule: '4.1-r2',
    why: 'the documentation domain would serve a route of the endpoint, which lives only on each operator’s site (rules 1.4 and 4.1-r2)',
  },
  {
    matches: (route) =>
      ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/.well-known/oauth-protected-resource'].some(
        (metadata) => route === metadata || route.startsWith(`${metadata}/`) || route.startsWith(`${metadata}.`),
      ),
    rule: '5.7',
    why: 'it is OAuth 2.0 or OpenID Connect metadata, and neither OAuth 2.0 nor dynamic client registration is used (rule 5.7)',
  },
];

/** Header names with which a static host asks the reader for credentials. */
const credentialHeaders = new Set(['basic-auth', 'www-authenticate', 'proxy-authenticate']);

function filesUnder(directory: string, prefix = ''): string[] {
  return readdirSync(path.join(directory, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(directory, relative) : [relative];
  });
}

/** The route a static host answers for a file: `a/b/index.html` is `/a/b/` and `/a/b`. */
function routesOf(file: string): string[] {
  const route = `/${file}`;
  if (route.endsWith('/index.html')) return [route, route.slice(0, -'index.html'.length), route.slice(0, -'/index.html'.length)];
  if (route.endsWith('.html')) return [route, route.slice(0, -'.html'.length)];
  return [route];
}

/**
 * Everything in a built site that breaks a rule of the specification about what the
 * documentation domain may publish: an endpoint route, OAuth metadata, or host headers that ask
 * for credentials (rules 1.4, 1.6, 4.1-r2, 5.7, 5.8).
 */
export function publishedSiteViolations(siteDirectory: string): PublishedSiteViolation[] {
  const violations: PublishedSiteViolation[] = [];
  for (const file of filesUnder(siteDirectory)) {
    for (const route of forbiddenRoutes) {
      if (routesOf(file).some((candidate) => route.matches(candidate))) {
        violations.push({ file, rule: route.rule, message: `${file} is published at /${file}: ${route.why}.` });
        break;
      }
    }
  }
  const headersFile = path.join(siteDirectory, '_headers');
  if (existsSync(headersFile)) {
    for (const rule of parseHeadersFile(readFileSync(headersFile, 'utf8'))) {
      for (const [name] of rule.headers) {
        if (credentialHeaders.has(name.toLowerCase())) {
          violations.push({
            file: '_headers',
            line: rule.line,
            rule: '1.6',
            message: `_headers asks for credentials on ${rule.pattern} with a ${name} header: the documentation, the server card and the downloads are fetched without authentication (rules 1.6 and 5.8).`,
          });
        }
      }
    }
  }
  return violations;
}
