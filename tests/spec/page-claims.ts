import type { SpecRuleId } from '../../src/lib/spec-rules.ts';
import { siteConfig } from '../../src/site-config.ts';
import type { BuiltPage } from './built-page.ts';
import type { RuleCheck } from './rule-check.ts';

/**
 * A rule a hand-written page states. The page marks the sentence that states it with
 * `<Rule id>`; the check finds that sentence in the built page and asks that it still says what
 * the rule requires (`says`). Rules that deny something (no OAuth, no throttling by the service,
 * no subscription data) also list the `topic` of a contrary claim: any sentence of the page on
 * that topic must carry a negation, so a reversal added anywhere on the page fails too.
 */
export interface PageClaim {
  rule: SpecRuleId;
  /** The page's route and the name a failure uses for it. */
  route: string;
  pageName: string;
  /** What the page says while the rule is kept, as a clause after "the <page> says". */
  claim: string;
  /** Every pattern must match one marked sentence of the rule. */
  says: RegExp[];
  /** None may match that sentence: the qualifiers that would reverse it. */
  mustNotSay?: RegExp[];
  /** Sentences anywhere on the page matching this topic must be negative. */
  deniedTopic?: RegExp;
  /**
   * The rule stated the other way round, as a careless edit would. Every run also checks a copy of
   * the page whose marked sentence says this instead, and one without the marked sentence: the
   * check must fail on both, or it is reported as unable to fail.
   */
  reversal: string;
}

const negation = /\b(?:no|not|never|none|nothing|neither|nor|without|cannot|only)\b|n[’']t\b/i;

/** Whether a sentence denies what it talks about (or limits it with "only"). */
export function isNegative(sentence: string): boolean {
  return negation.test(sentence);
}

export function pageClaimProblems(claim: PageClaim, page: BuiltPage): string[] {
  const statements = page.ruleStatements(claim.rule);
  const problems: string[] = [];
  const keeping = statements.filter(
    (statement) => claim.says.every((pattern) => pattern.test(statement)) && !(claim.mustNotSay ?? []).some((pattern) => pattern.test(statement)),
  );
  if (statements.length === 0) {
    problems.push(`the ${claim.pageName} no longer says ${claim.claim}: no sentence of ${claim.route} is marked <Rule id="${claim.rule}">`);
  } else if (keeping.length === 0) {
    problems.push(`the ${claim.pageName} no longer says ${claim.claim}; its marked sentence reads: “${statements[0]}”`);
  }
  if (claim.deniedTopic !== undefined) {
    for (const sentence of page.sentences) {
      if (claim.deniedTopic.test(sentence) && !isNegative(sentence)) {
        problems.push(`the ${claim.pageName} contradicts the rule: “${sentence}”`);
      }
    }
  }
  return problems;
}

/** The page with the rule's marked sentence replaced (or, with no replacement, removed). */
function withStatement(page: BuiltPage, ruleId: string, replacement?: string): BuiltPage {
  return {
    ...page,
    sentences: replacement === undefined ? page.sentences : [...page.sentences, replacement],
    ruleStatements: (id) => (id !== ruleId ? page.ruleStatements(id) : replacement === undefined ? [] : [replacement]),
  };
}

export function pageClaimCheck(claim: PageClaim): RuleCheck {
  return {
    rule: claim.rule,
    name: `the ${claim.pageName} says ${claim.claim}`,
    run(context) {
      const page = context.page(claim.route);
      const problems = pageClaimProblems(claim, page);
      if (pageClaimProblems(claim, withStatement(page, claim.rule, claim.reversal)).length === 0) {
        problems.push(`the check cannot tell the rule from its reversal “${claim.reversal}”`);
      }
      if (pageClaimProblems(claim, withStatement(page, claim.rule)).length === 0) {
        problems.push('the check does not notice the rule’s sentence removed');
      }
      return problems;
    },
  };
}

const authGuide = { route: '/authentication/', pageName: 'authentication guide' };
const errorsPage = { route: '/errors-and-rate-limits/', pageName: 'errors page' };
const homePage = { route: '/', pageName: 'home page' };
const productServerPage = { route: '/product-information-server/', pageName: 'product-information page' };
const mcpUrlPattern = new RegExp(siteConfig.mcpUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));

/** The rules the hand-written pages state, page by page. */
export const pageClaims: PageClaim[] = [
  {
    ...authGuide,
    rule: '1.3',
    reversal: 'One endpoint serves every shop, and sites can share a key.',
    claim: 'that every site has its own endpoint and its own key',
    says: [/\bown endpoint\b/i, /\bown (?:API )?key\b/i],
    deniedTopic: /\b(?:shared|one|same|single) (?:endpoint|key|tenant)\b.*\b(?:sites|shops)\b/i,
  },
  {
    ...authGuide,
    rule: '5.1',
    reversal: 'Send the key in the Authorization header.',
    claim: 'that the key is a site-scoped string sent in the JSON body field api_key',
    says: [/\bapi_key\b/, /\bJSON body\b/i, /\bstring\b/i],
  },
  {
    ...authGuide,
    rule: '5.2',
    reversal: 'Ask the publisher’s support team for a key.',
    claim: 'that the site owner generates the key in the administration area, under the service’s settings, in the API settings section',
    says: [/\bsite owner\b/i, /\badministration area\b/i, /\bservice[’']s settings\b/i, /\bAPI settings\b/i],
  },
  {
    ...authGuide,
    rule: '5.3',
    reversal: 'The site owner can regenerate the key once a year.',
    claim: 'that the site owner can regenerate the key at any time',
    says: [/\b(?:regenerat|generate a new key)/i, /\bat any time\b/i],
    mustNotSay: [/\bonce (?:a|per|every)\b/i, /\bevery \w+ (?:days?|weeks?|months?|years?)\b/i, /\bcannot\b|\bnot\b/i],
    deniedTopic: /\bregenerat\w*\b.*\b(?:once a|once per|per year|per month|every \w+ (?:days?|weeks?|months?|years?)|limited)\b/i,
  },
  {
    ...authGuide,
    rule: '5.4',
    reversal: 'A key works on every site that runs the service.',
    claim: 'that a key works only for the site that issued it',
    says: [/\bonly\b/i, /\bsite that issued it\b/i],
    deniedTopic: /\bkey\b.*\b(?:works|valid|accepted)\b.*\b(?:any|every|all|other) (?:site|shop)s?\b/i,
  },
  {
    ...authGuide,
    rule: '5.5',
    reversal: 'A key works for every REST route of the site.',
    claim: 'that a key works only for the lifecycle actions',
    says: [/\bonly\b/i, /\blifecycle actions\b/i],
  },
  {
    ...authGuide,
    rule: '4.1-r3',
    reversal: 'The key also opens the shop’s REST API for orders and customers.',
    claim: 'that the key grants access to the lifecycle actions and nothing else',
    says: [/\blifecycle actions\b|\bactions of the endpoint\b/i, /\bnothing else\b/i],
  },
  {
    ...authGuide,
    rule: '5.6',
    reversal: 'The key also opens the shop’s orders.',
    claim: 'that a key opens none of the site’s users, content, orders or administration functions',
    says: [/\b(?:no|not)\b/i, /\busers\b/i, /\bcontent\b/i, /\borders\b/i, /\badministration\b/i],
    deniedTopic: /\bkey\b.*\b(?:open|opens|unlock|unlocks|reach|reaches|access|grants?|read|reads|manage|manages)\b.*\b(?:users|content|orders|administration)\b/i,
  },
  {
    ...authGuide,
    rule: '5.7',
    reversal: 'OAuth 2.0 is supported for clients that prefer tokens.',
    claim: 'that neither OAuth 2.0 nor dynamic client registration is used',
    says: [/\bOAuth 2\.0\b/, /\bdynamic client registration\b/i, /\b(?:not|neither|never)\b.*\bused\b/i],
    deniedTopic: /\bOAuth\b|\bdynamic client registration\b/i,
  },
  {
    ...authGuide,
    rule: '5.8',
    reversal: 'The product-information server needs the shop’s API key.',
    claim: 'that the product-information server and the documentation need no credentials',
    says: [/\bproduct-information server\b/i, /\bdocumentation\b/i, /\bno credentials\b/i],
  },
  {
    ...homePage,
    rule: '1.1',
    claim: 'that the service manages the lifecycle of recurring subscriptions and runs as a plugin on the operator’s own site',
    says: [/\blifecycle\b/i, /\brecurring subscriptions\b/i, /\bplugin\b/i, /\bown\b[^.]*\bsite\b/i],
    reversal: 'The service is a hosted platform that keeps every shop’s subscriptions in one place.',
  },
  {
    ...homePage,
    rule: '1.4',
    claim: 'that this domain only hosts the specification, the authentication guide and the documentation, and never processes subscription requests',
    says: [/\bonly\b/i, /\bspecification\b/i, /\bauthentication guide\b/i, /\bdocumentation\b/i, /\b(?:never|does not|doesn[’']t) process/i],
    deniedTopic: /\b(?:this|the publisher[’']s|documentation) (?:domain|site)\b[^.]*\bprocess/i,
    reversal: 'This domain processes subscription requests for every shop.',
  },
  {
    ...errorsPage,
    rule: '7.1',
    claim: 'that a 429 from the host is authoritative and its Retry-After is honoured',
    says: [/\b429\b/, /\bauthoritative\b/i, /\bRetry-After\b/],
    mustNotSay: [/\bhint\b/i, /\boptional\b/i, /\bmay ignore\b/i],
    deniedTopic: /\b429\b[^.]*\b(?:hint|optional|safe to ignore|may ignore|can ignore)\b/i,
    reversal: 'A 429 is a hint you may ignore when you are in a hurry.',
  },
  {
    ...errorsPage,
    rule: '8.1',
    claim: 'that the service itself does not throttle requests',
    says: [/\bservice\b/i, /\b(?:never|not|no)\b/i, /\b(?:throttl|limit)/i],
    deniedTopic: /\bservice\b[^.]*\b(?:throttles|limits|rate-limits|caps)\b/i,
    reversal: 'The service throttles at 60 requests a minute.',
  },
  {
    ...errorsPage,
    rule: '8.2',
    claim: 'that the hosting environment may throttle with a 429 and Retry-After',
    says: [/\bhost/i, /\b429\b/, /\bRetry-After\b/],
    reversal: 'Hosts never throttle requests to the endpoint.',
  },
  {
    ...errorsPage,
    rule: '8.3',
    claim: 'that a client should pace itself at about one request per second per site, a courtesy the service does not enforce',
    says: [/\b(?:about|around|roughly) one request (?:per|a|each) second\b/i, /\b(?:each|every|per|to each) (?:site|shop)\b/i],
    deniedTopic: /\bservice\b[^.]*\benforces?\b/i,
    reversal: 'Send as many requests as you like; the service enforces ten requests per second.',
  },
  {
    ...productServerPage,
    rule: '1.5a',
    claim: `that the server is at ${siteConfig.mcpUrl} over Streamable HTTP`,
    says: [mcpUrlPattern, /\bStreamable HTTP\b/i],
    reversal: 'The server speaks stdio only, on your own machine.',
  },
  {
    ...productServerPage,
    rule: '1.5c',
    claim: 'that the server answers product questions only: pricing, features, payment gateways, free versus paid edition, an API overview',
    says: [/\bonly\b/i, /\bpricing\b/i, /\bfeatures\b/i, /\bpayment gateways\b/i, /\bfree\b[^.]*\bpaid\b/i, /\boverview of the API\b|\bAPI overview\b/i],
    reversal: 'It answers any question about a shop’s subscriptions and customers.',
  },
  {
    ...productServerPage,
    rule: '1.5e',
    claim: 'that the server holds no subscription data, which stays on the operator’s site behind the endpoint',
    says: [/\bno subscription data\b/i],
    deniedTopic: /\b(?:server|it)\b[^.]*\b(?:holds|keeps|stores|caches|has)\b[^.]*\bsubscription data\b/i,
    reversal: 'The server keeps a copy of each shop’s subscription data.',
  },
  {
    ...productServerPage,
    rule: '4.2',
    claim: 'that the server is read-only',
    says: [/\bread-only\b/i],
    mustNotSay: [/\bcan (?:pause|cancel|change|modify|update|write)\b/i],
    deniedTopic: /\b(?:server|it)\b[^.]*\bcan (?:pause|cancel|change|modify|update|write)\b/i,
    reversal: 'It can also pause and cancel subscriptions for you.',
  },
  {
    ...productServerPage,
    rule: '5.8',
    claim: 'that the server needs no credentials',
    says: [/\bno credentials\b/i],
    deniedTopic: /\b(?:server|it)\b[^.]*\b(?:needs|requires|asks for)\b[^.]*\b(?:key|token|credentials?|sign-in|password)\b/i,
    reversal: 'The server needs the shop’s API key in an Authorization header.',
  },
];
