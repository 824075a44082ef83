/**
 * The rules of the interface specification, each under the stable id the team numbers them by,
 * stated briefly in this project's own words. A check names the rules it guards by these ids
 * (`[rule 4.1a] ...`), so a message never points at a document outside this repository.
 */

/** A place where a rule shows, and so where a check can watch it. */
export type RulePlace =
  | 'contract'
  | 'compatibility gate'
  | 'built site'
  | 'host headers'
  | 'server card'
  | 'product-information server'
  | 'home page'
  | 'overview'
  | 'authentication guide'
  | 'errors page'
  | 'code samples'
  | 'product-information page'
  | 'changelog page'
  | 'versioning page';

export interface SpecRule {
  /** Stable id, such as `4.1a` or `4.1-r2`; the part before the first `.` is the section. */
  id: string;
  /** The section of the interface specification the rule comes from. */
  section: string;
  /** What the rule requires, in a sentence of our own. */
  statement: string;
  /** Where the rule shows, so where it has to be checked. */
  where: readonly RulePlace[];
}

const whatTheServiceDoes = '1 What the service does';
const resources = '2 Resources and their fields';
const lifecycleAction = '4.1 Lifecycle action';
const productServer = '4.2 Read-only product-information server';
const authentication = '5 Authentication';
const errors = '7 Errors';
const limits = '8 Limits';
const versioning = '9 Versioning';

export const specRules = [
  {
    id: '1.1',
    section: whatTheServiceDoes,
    statement: 'The service runs as a plugin on the operator’s own site and looks after the lifecycle of the shop’s recurring subscriptions.',
    where: ['home page', 'overview'],
  },
  {
    id: '1.2',
    section: whatTheServiceDoes,
    statement: 'There is one endpoint only, POST {base_url}/wp-json/service/v1/action, and it takes eight actions.',
    where: ['contract'],
  },
  {
    id: '1.3',
    section: whatTheServiceDoes,
    statement: 'Each site running the service has an endpoint and a key of its own; nothing is shared between sites.',
    where: ['contract', 'authentication guide'],
  },
  {
    id: '1.4',
    section: whatTheServiceDoes,
    statement: 'The publisher’s domain carries the specification, the authentication guide and the documentation, and handles no subscription request.',
    where: ['home page', 'built site'],
  },
  {
    id: '1.5a',
    section: whatTheServiceDoes,
    statement: 'The product-information server lives at {mcp_url} and speaks Streamable HTTP.',
    where: ['server card', 'product-information page', 'product-information server'],
  },
  {
    id: '1.5b',
    section: whatTheServiceDoes,
    statement: 'The server card is published at {docs_url}/.well-known/mcp/server-card.json.',
    where: ['built site'],
  },
  {
    id: '1.5c',
    section: whatTheServiceDoes,
    statement: 'The product-information server answers product questions and nothing else: pricing, features, payment gateways, free and paid editions, an overview of the API.',
    where: ['product-information page', 'server card', 'product-information server'],
  },
  {
    id: '1.5d',
    section: whatTheServiceDoes,
    statement: 'The product-information server asks for no credentials.',
    where: ['server card', 'product-information server'],
  },
  {
    id: '1.5e',
    section: whatTheServiceDoes,
    statement: 'The product-information server keeps no subscription data; that data stays on the operator’s site and is reached only through the endpoint.',
    where: ['product-information page', 'product-information server'],
  },
  {
    id: '1.6',
    section: whatTheServiceDoes,
    statement: 'Anyone can fetch the documentation resources; none of them sits behind authentication.',
    where: ['built site', 'host headers'],
  },
  {
    id: '2.1',
    section: resources,
    statement: 'The site’s API key is carried in the request body field api_key.',
    where: ['contract'],
  },
  {
    id: '4.1a',
    section: lifecycleAction,
    statement: 'Requests use the POST method and carry a JSON body.',
    where: ['contract'],
  },
  {
    id: '4.1b',
    section: lifecycleAction,
    statement: 'The path is {base_url}/wp-json/service/v1/action, where {base_url} is the operator’s site, https://{site}.',
    where: ['contract'],
  },
  {
    id: '4.1c',
    section: lifecycleAction,
    statement: 'The actions are exactly these eight identifiers: cancel_subscription, pause_subscription, resume_subscription, reactivate_subscription, expire_subscription, change_status, trial_end, payment_failed.',
    where: ['contract'],
  },
  {
    id: '4.1-r1',
    section: lifecycleAction,
    statement: 'Every action goes to the same endpoint with the same method.',
    where: ['contract'],
  },
  {
    id: '4.1-r2',
    section: lifecycleAction,
    statement: 'Only the operator’s site hosts the endpoint; the publisher’s domain never serves it.',
    where: ['contract', 'built site'],
  },
  {
    id: '4.1-r3',
    section: lifecycleAction,
    statement: 'The key opens the lifecycle actions and nothing more.',
    where: ['authentication guide'],
  },
  {
    id: '4.2',
    section: productServer,
    statement: 'The product-information server: found at {mcp_url}, over Streamable HTTP, described by its card, free of credentials, read-only.',
    where: ['server card', 'product-information page', 'product-information server'],
  },
  {
    id: '5.1',
    section: authentication,
    statement: 'The credential is a key scoped to one site, sent as the string field api_key of the JSON body.',
    where: ['contract', 'authentication guide'],
  },
  {
    id: '5.2',
    section: authentication,
    statement: 'The site owner creates the key in the site’s administration area, in the API section of the service’s settings.',
    where: ['authentication guide'],
  },
  {
    id: '5.3',
    section: authentication,
    statement: 'The site owner may regenerate the key whenever they like.',
    where: ['authentication guide'],
  },
  {
    id: '5.4',
    section: authentication,
    statement: 'A key works only on the site that issued it.',
    where: ['authentication guide'],
  },
  {
    id: '5.5',
    section: authentication,
    statement: 'A key works only for the subscription lifecycle actions.',
    where: ['authentication guide'],
  },
  {
    id: '5.6',
    section: authentication,
    statement: 'A key opens none of the site’s users, content, orders or administration.',
    where: ['authentication guide'],
  },
  {
    id: '5.7',
    section: authentication,
    statement: 'Neither OAuth 2.0 nor dynamic client registration is used.',
    where: ['contract', 'authentication guide', 'built site'],
  },
  {
    id: '5.8',
    section: authentication,
    statement: 'Neither the product-information server nor the documentation asks for credentials.',
    where: ['server card', 'product-information server', 'built site'],
  },
  {
    id: '7.1',
    section: errors,
    statement: 'A 429 sent by the hosting environment is final for the client, which waits as its Retry-After header says.',
    where: ['contract', 'errors page', 'code samples'],
  },
  {
    id: '8.1',
    section: limits,
    statement: 'The service puts no rate limit of its own on requests.',
    where: ['errors page'],
  },
  {
    id: '8.2',
    section: limits,
    statement: 'The hosting environment may throttle wp-json traffic, answering 429 with Retry-After.',
    where: ['contract', 'errors page'],
  },
  {
    id: '8.3',
    section: limits,
    statement: 'Clients are asked to keep to about one request per second per site, as a courtesy the service does not enforce.',
    where: ['errors page', 'code samples'],
  },
  {
    id: '9.1',
    section: versioning,
    statement: 'The version is a segment of the path, /wp-json/service/v1/, and the current one is v1.',
    where: ['contract'],
  },
  {
    id: '9.2',
    section: versioning,
    statement: 'A breaking change ships only under a new version segment of the path.',
    where: ['compatibility gate'],
  },
  {
    id: '9.3',
    section: versioning,
    statement: 'Within v1 the shapes of requests and responses do not change.',
    where: ['compatibility gate'],
  },
  {
    id: '9.4',
    section: versioning,
    statement: 'Version 1 grows only by additions: new actions and new optional fields.',
    where: ['compatibility gate'],
  },
  {
    id: '9.5',
    section: versioning,
    statement: 'A deprecation is announced in the changelog before anything is taken away.',
    where: ['changelog page', 'versioning page', 'compatibility gate'],
  },
] as const satisfies readonly SpecRule[];

/** The id of one of the rules above; a typo in a check's list of rules fails the type check. */
export type SpecRuleId = (typeof specRules)[number]['id'];

const rulesById: ReadonlyMap<string, SpecRule> = new Map(specRules.map((rule) => [rule.id, rule]));

export function isSpecRuleId(value: string): value is SpecRuleId {
  return rulesById.has(value);
}

/** The rule with this id. */
export function specRule(id: SpecRuleId): SpecRule {
  const rule = rulesById.get(id);
  if (rule === undefined) throw new Error(`No rule ${id} in src/lib/spec-rules.ts`);
  return rule;
}

/** How a message names rules: `rule 4.1a` or `rule 4.1a, 4.1-r1`. */
export function ruleLabel(ids: readonly SpecRuleId[]): string {
  return ids.length === 0 ? '' : `rule ${ids.join(', ')}`;
}
