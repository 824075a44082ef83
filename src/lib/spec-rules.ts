/**
 * The rules of the interface specification, numbered as the publisher numbers them. Each check
 * of the project names the rule it guards by its id (`[5.3] ...`), and `npm run test:spec` maps
 * every id to its checks. The statements are this project's summaries, not the specification's
 * wording; `section` says where in the specification the rule is written.
 */
export interface SpecRule {
  id: string;
  /** The rule in one short sentence. */
  statement: string;
  /** The section of the interface specification that states it. */
  section: string;
  /** Where the rule shows in this project, so a reader knows what its checks look at. */
  where: string;
}

export const specRules = [
  { id: '1.1', section: '1', where: 'home, overview', statement: 'The service manages the lifecycle of recurring shop subscriptions and runs as a plugin on the operator’s own site.' },
  { id: '1.2', section: '1', where: 'contract', statement: 'There is exactly one endpoint, POST {base_url}/wp-json/service/v1/action, and it takes eight actions.' },
  { id: '1.3', section: '1', where: 'contract, authentication guide', statement: 'Each site has its own endpoint and its own key; nothing is shared between sites.' },
  { id: '1.4', section: '1', where: 'home, built site', statement: 'The publisher’s domain holds only the specification, the authentication guide and the documentation; it never processes subscription requests.' },
  { id: '1.5a', section: '1', where: 'card, product-information page, server', statement: 'The product-information server lives at {mcp_url} and speaks Streamable HTTP.' },
  { id: '1.5b', section: '1', where: 'built site', statement: 'The server card is published at {docs_url}/.well-known/mcp/server-card.json.' },
  { id: '1.5c', section: '1', where: 'product-information page, card, server', statement: 'The product-information server answers product questions only: pricing, features, payment gateways, free versus paid edition, an API overview.' },
  { id: '1.5d', section: '1', where: 'card, server', statement: 'The product-information server asks for no credentials.' },
  { id: '1.5e', section: '1', where: 'product-information page, server', statement: 'The product-information server holds no subscription data; that data stays on the operator’s site behind the endpoint.' },
  { id: '1.6', section: '1', where: 'built site, host headers', statement: 'Every documentation resource can be fetched without authentication.' },
  { id: '2.1', section: '2', where: 'contract', statement: 'The key travels in the request body field api_key.' },
  { id: '4.1a', section: '4.1', where: 'contract', statement: 'The endpoint takes POST with a JSON body.' },
  { id: '4.1b', section: '4.1', where: 'contract', statement: 'The path is {base_url}/wp-json/service/v1/action, where {base_url} is https://{site}.' },
  { id: '4.1c', section: '4.1', where: 'contract', statement: 'The eight action identifiers are exactly the specified ones.' },
  { id: '4.1-r1', section: '4.1', where: 'contract', statement: 'All eight actions share the one endpoint and the one method.' },
  { id: '4.1-r2', section: '4.1', where: 'contract, built site', statement: 'Only the operator’s site hosts the endpoint; the publisher’s domain never serves it.' },
  { id: '4.1-r3', section: '4.1', where: 'authentication guide', statement: 'The key opens the lifecycle actions and nothing else.' },
  { id: '4.2', section: '4.2', where: 'card, product-information page, server', statement: 'The product-information server: at {mcp_url}, Streamable HTTP, described by its card, no credentials, read-only.' },
  { id: '5.1', section: '5', where: 'contract, authentication guide', statement: 'The credential is a key scoped to one site, sent as the string body field api_key.' },
  { id: '5.2', section: '5', where: 'authentication guide', statement: 'The site owner generates the key in the site’s administration area, in the service’s settings, API settings section.' },
  { id: '5.3', section: '5', where: 'authentication guide', statement: 'The site owner can regenerate the key at any time.' },
  { id: '5.4', section: '5', where: 'authentication guide', statement: 'A key works only for the site that issued it.' },
  { id: '5.5', section: '5', where: 'authentication guide', statement: 'A key works only for the lifecycle actions.' },
  { id: '5.6', section: '5', where: 'authentication guide', statement: 'A key opens none of the site’s users, content, orders or administration functions.' },
  { id: '5.7', section: '5', where: 'contract, authentication guide, built site', statement: 'Neither OAuth 2.0 nor dynamic client registration is used.' },
  { id: '5.8', section: '5', where: 'card, server, built site', statement: 'The product-information server and the documentation need no credentials.' },
  { id: '7.1', section: '7', where: 'contract, errors page, samples', statement: 'A 429 from the hosting environment is authoritative, and the client honours Retry-After.' },
  { id: '8.1', section: '8', where: 'errors page', statement: 'The service itself does not throttle requests.' },
  { id: '8.2', section: '8', where: 'contract, errors page', statement: 'The hosting environment may throttle wp-json traffic, answering 429 with Retry-After.' },
  { id: '8.3', section: '8', where: 'errors page, samples', statement: 'Clients should pace themselves at about one request per second per site, a courtesy the service does not enforce.' },
  { id: '9.1', section: '9', where: 'contract', statement: 'The version is in the path, /wp-json/service/v1/, and the current version is v1.' },
  { id: '9.2', section: '9', where: 'compatibility gate', statement: 'Breaking changes ship only under a new version namespace.' },
  { id: '9.3', section: '9', where: 'compatibility gate', statement: 'Within v1, request and response shapes stay stable.' },
  { id: '9.4', section: '9', where: 'compatibility gate', statement: 'v1 only grows by additions: new actions and new optional fields.' },
  { id: '9.5', section: '9', where: 'changelog, versioning page, gate', statement: 'A deprecation is announced in the changelog before anything is removed.' },
] as const satisfies readonly SpecRule[];

export type SpecRuleId = (typeof specRules)[number]['id'];

export function isSpecRuleId(value: string): value is SpecRuleId {
  return specRules.some((rule) => rule.id === value);
}

export function specRule(id: SpecRuleId): SpecRule {
  const rule = specRules.find((candidate) => candidate.id === id);
  if (rule === undefined) throw new Error(`No rule ${id} in the specification's rule list`);
  return rule;
}
