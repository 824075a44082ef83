import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverCardPath } from '../../src/lib/site/discovery.ts';
import { publishedSiteViolations } from '../../src/lib/site/published-site.ts';
import type { SpecRuleId } from '../../src/lib/spec-rules.ts';
import { siteConfig } from '../../src/site-config.ts';
import type { RuleCheck } from './rule-check.ts';

/**
 * Runs the build's own guard (src/lib/site/published-site.ts) over the built site, and over a scratch
 * site that holds the forbidden file, so the guard is proven to notice it every time it runs.
 */
function guardCheck(rule: SpecRuleId, keeps: string, forbidden: { file: string; text: string; what: string }): RuleCheck {
  return {
    rule,
    name: `${keeps} (the build’s published-site guard)`,
    run({ siteDirectory }) {
      const problems = publishedSiteViolations(siteDirectory)
        .filter((violation) => violation.rule === rule || (rule === '1.4' && violation.rule === '4.1-r2') || (rule === '5.8' && violation.rule === '1.6'))
        .map((violation) => `the built site breaks the rule: ${violation.message}`);
      const scratch = mkdtempSync(path.join(tmpdir(), 'published-site-'));
      try {
        const file = path.join(scratch, forbidden.file);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, forbidden.text);
        if (!publishedSiteViolations(scratch).some((violation) => violation.file === forbidden.file)) {
          problems.push(`the published-site guard no longer notices ${forbidden.what}`);
        }
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
      return problems;
    },
  };
}

const wpJsonRoute = { file: 'wp-json/service/v1/action', text: '{}', what: 'a file under /wp-json/' };
const basicAuth = { file: '_headers', text: '/*\n  Basic-Auth: reader:secret\n', what: 'a Basic-Auth line in _headers' };

interface ServerCard {
  remotes?: { type?: string; url?: string; headers?: unknown[] }[];
  authentication?: unknown;
  [key: string]: unknown;
}

function readCard(siteFile: (route: string) => string): ServerCard {
  return JSON.parse(siteFile(serverCardPath)) as ServerCard;
}

export const siteRuleChecks: RuleCheck[] = [
  guardCheck('1.4', 'the documentation domain publishes no route of the endpoint', wpJsonRoute),
  guardCheck('4.1-r2', 'no file of the built site answers under /wp-json/', wpJsonRoute),
  guardCheck('5.7', 'the built site publishes no OAuth 2.0 or OpenID Connect metadata', {
    file: '.well-known/oauth-authorization-server',
    text: '{}',
    what: 'OAuth authorisation server metadata',
  }),
  guardCheck('1.6', 'the host headers ask for no credentials on any path', basicAuth),
  guardCheck('5.8', 'the documentation is served without asking for credentials', basicAuth),
  {
    rule: '1.5b',
    name: `the server card is published at ${serverCardPath}`,
    run({ siteFile }) {
      try {
        readCard(siteFile);
        return [];
      } catch (error) {
        return [`the built site has no readable server card at ${serverCardPath}: ${(error as Error).message}`];
      }
    },
  },
  {
    rule: '1.5a',
    name: 'the server card points at {mcp_url} over Streamable HTTP',
    run({ siteFile }) {
      const remotes = readCard(siteFile).remotes ?? [];
      const ok = remotes.length > 0 && remotes.every((remote) => remote.type === 'streamable-http' && remote.url === siteConfig.mcpUrl);
      return ok ? [] : [`the server card’s remotes are ${JSON.stringify(remotes)}, not one streamable-http remote at ${siteConfig.mcpUrl}`];
    },
  },
  {
    rule: '1.5d',
    name: 'the server card asks for no credentials (no headers, no authentication)',
    run({ siteFile }) {
      const card = readCard(siteFile);
      const asking = (card.remotes ?? []).filter((remote) => (remote.headers ?? []).length > 0).map((remote) => remote.url);
      const problems = asking.map((url) => `the server card asks for headers on ${url}`);
      if (card.authentication !== undefined) problems.push('the server card declares authentication');
      return problems;
    },
  },
];
