import type { ReferenceModel } from '../lib/actions.ts';
import { factsOf } from '../lib/facts.ts';
import { acceptedStates, targetStates } from '../lib/lifecycle.ts';
import { actionPagePath } from '../lib/navigation.ts';
import { notYetPublished, productFactsFile, type ProductFacts } from '../lib/product-facts.ts';
import { siteConfig } from '../site-config.ts';
import { searchDocumentation, type DocumentationPage } from './documentation.ts';

/** What every tool answers from: the contract's model, the product facts and the documentation. */
export interface ProductKnowledge {
  model: ReferenceModel;
  facts: ProductFacts;
  pages: DocumentationPage[];
}

const productPageUrl = new URL('/product/', siteConfig.docsUrl).href;

function oneLine(markdown: string): string {
  return markdown.replace(/\s+/g, ' ').trim();
}

/** The API in one answer: where it is, how the key travels, what it does, how it fails. */
export function apiOverview({ model }: ProductKnowledge) {
  const facts = factsOf(model);
  return {
    endpoint: facts.endpointUrlTemplate,
    method: facts.method,
    whereItRuns: `On each operator's own WordPress site: {${facts.siteVariable}} is that site's host. Each site has its own endpoint and its own key.`,
    authentication: {
      field: facts.credentialField,
      carriedIn: 'the JSON request body',
      oauth: 'OAuth 2.0 and dynamic client registration are not used.',
    },
    actionField: facts.actionField,
    actions: model.actions.map((action) => ({ identifier: action.identifier, summary: action.title, page: new URL(actionPagePath(action.identifier), siteConfig.docsUrl).href })),
    errors: model.responses.filter((response) => response.isError).map((response) => ({ status: Number(response.status), codes: response.errorCodes.map((code) => code.code) })),
    rateLimit: `A ${facts.rateLimitStatus} comes from the hosting environment (host, firewall or CDN), not from the service, which does not throttle. Treat it as authoritative and wait as long as its ${facts.retryAfterHeader} header says before sending the same request again.`,
    pace: 'Send about one request per second to each site: a courtesy default, not enforced by the service.',
    versioning: `The version is in the path (${facts.versionNamespace}); v1 only grows by additions (new actions, new optional fields), and breaking changes need a new version namespace.`,
    documentation: siteConfig.docsUrl,
  };
}

export function actionIdentifiers({ model }: ProductKnowledge): [string, ...string[]] {
  const identifiers = model.actions.map((action) => action.identifier);
  const [first, ...rest] = identifiers;
  if (first === undefined) throw new Error('The contract defines no action');
  return [first, ...rest];
}

/** One action in detail: its fields, the statuses it takes and leads to, its errors, its example. */
export function actionDetails({ model }: ProductKnowledge, identifier: string) {
  const action = model.actions.find((candidate) => candidate.identifier === identifier);
  if (action === undefined) throw new Error(`No action ${identifier}; the actions are ${model.actions.map((candidate) => candidate.identifier).join(', ')}`);
  return {
    identifier: action.identifier,
    summary: action.title,
    description: oneLine(action.description),
    deprecated: action.deprecated,
    fields: action.fields.map((field) => ({ name: field.name, type: field.type, required: field.required, description: oneLine(field.description) })),
    acceptedFrom: acceptedStates(action.transition),
    leadsTo: targetStates(action.transition),
    errors: action.errors.map((error) => ({ status: Number(error.status), code: error.code, when: oneLine(error.when) })),
    requestExample: action.requestExample.value,
    page: new URL(actionPagePath(action.identifier), siteConfig.docsUrl).href,
  };
}

export function searchDocs({ pages }: ProductKnowledge, query: string, limit: number) {
  return { query, results: searchDocumentation(pages, query, limit) };
}

/** The longest page text one answer carries; a longer page says where the rest is. */
export const pageCharacterLimit = 8000;

export function readPage({ pages }: ProductKnowledge, address: string) {
  let pathname: string;
  try {
    pathname = new URL(address, siteConfig.docsUrl).pathname;
  } catch {
    throw new Error(`"${address}" is not a page address`);
  }
  const wanted = pathname.endsWith('/') ? pathname : `${pathname}/`;
  const page = pages.find((candidate) => new URL(candidate.url).pathname === wanted);
  if (page === undefined) throw new Error(`No documentation page at ${wanted}; search_docs finds pages by their words`);
  const truncated = page.markdown.length > pageCharacterLimit;
  return {
    title: page.title,
    url: page.url,
    markdown: truncated ? `${page.markdown.slice(0, pageCharacterLimit)}\n\n… (cut here; read the rest at ${page.url})` : page.markdown,
    truncated,
  };
}

export const productTopics = ['editions', 'pricing', 'payment_gateways', 'features'] as const;
export type ProductTopic = (typeof productTopics)[number];

function published<T>(value: T | typeof notYetPublished) {
  return value === notYetPublished
    ? { published: false as const, note: `Not yet published by the publisher. When it is, it appears at ${productPageUrl}.` }
    : { published: true as const, value };
}

/** A product topic from the product facts (and, for features, the contract). */
export function productInformation({ model, facts }: ProductKnowledge, topic: ProductTopic) {
  const source = `${productFactsFile} (shown at ${productPageUrl})`;
  switch (topic) {
    case 'editions':
      return {
        topic,
        summary: 'There is a free edition and a paid edition.',
        editions: Object.entries(facts.editions).map(([id, edition]) => ({ id, name: edition.name, includes: published(edition.includes) })),
        source,
      };
    case 'pricing':
      return { topic, pricing: published(facts.pricing), source };
    case 'payment_gateways':
      return { topic, paymentGateways: published(facts.paymentGateways), source };
    case 'features':
      return {
        topic,
        apiFeatures: [
          `One endpoint, ${model.endpoint.method} ${model.endpoint.urlTemplate}, on each shop's own site`,
          ...model.actions.map((action) => `${action.identifier}: ${action.title}`),
        ],
        otherFeatures: published(facts.features),
        source,
      };
  }
}

/**
 * The answer to any question about a subscription, an order or a customer: this server holds
 * none of that; the data stays on the operator's site, behind the endpoint and its key.
 */
export function subscriptionDataLocation({ model }: ProductKnowledge) {
  const facts = factsOf(model);
  return {
    holdsSubscriptionData: false,
    answer:
      'This product-information server holds no subscription, order or customer data and cannot look any up. That data stays on each operator’s own site and is reached only through the endpoint there, with that site’s key.',
    endpoint: `${facts.method} ${facts.endpointUrlTemplate}`,
    credential: `the ${facts.credentialField} field of the JSON body, a key the site owner generates`,
    guide: new URL('/quickstart/', siteConfig.docsUrl).href,
  };
}
