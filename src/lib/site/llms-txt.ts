import type { ReferenceModel } from '../contract/model.ts';
import { arazzoYamlPath, openApiJsonPath, openApiYamlPath, serverCardPath } from './discovery.ts';
import { actionPagePath, endpointPagePath, referenceIndexPath } from './navigation.ts';
import { countInWords } from '../prose.ts';
import { publishedUrl } from './reference-markdown.ts';
import { siteConfig } from '../../site-config.ts';

/** Where the two files of the llms.txt proposal (https://llmstxt.org/) are published. */
export const llmsTxtPath = '/llms.txt';
export const llmsFullTxtPath = '/llms-full.txt';

/** A hand-written page of the site, as the content collection describes it. */
export interface GuideEntry {
  /** The collection id: `index`, `quickstart`, … */
  id: string;
  title: string;
  description: string;
}

/** One item of an llms.txt section: `- [name](url): notes`. */
export interface LlmsLink {
  name: string;
  url: string;
  notes?: string;
}

export interface LlmsSection {
  title: string;
  links: LlmsLink[];
}

/** An llms.txt file as the proposal structures it: title, summary, free paragraphs, sections of links. */
export interface LlmsIndex {
  title: string;
  summary: string;
  info: string[];
  sections: LlmsSection[];
}

/** The pages a newcomer reads first, in this order; the other guides follow by title. */
const firstGuides = ['index', 'quickstart', 'authentication'];

/**
 * Guides an agent can leave out when its context is short: the history of releases and the tools
 * for checking an install or running the lifecycle's workflows. The proposal's `Optional` section holds them.
 */
const optionalGuides = new Set(['changelog', 'conformance', 'workflows']);

export function guidePath(id: string): string {
  return id === 'index' ? '/' : `/${id}/`;
}

function guideRank(guide: GuideEntry): number {
  const index = firstGuides.indexOf(guide.id);
  return index < 0 ? firstGuides.length : index;
}

/** The guides an llms file lists, in reading order; the 404 page tells a reader nothing. */
export function listedGuides(guides: GuideEntry[]): GuideEntry[] {
  return guides
    .filter((guide) => guide.id !== '404')
    .sort((a, b) => guideRank(a) - guideRank(b) || a.title.localeCompare(b.title, 'en'));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function guideLink(guide: GuideEntry): LlmsLink {
  return { name: guide.title, url: publishedUrl(guidePath(guide.id)), notes: oneLine(guide.description) };
}

export function llmsSummary(model: ReferenceModel): string {
  return `A WordPress plugin that manages recurring subscriptions and exposes one HTTP endpoint on each shop’s own site for ${countInWords(model.actions.length)} lifecycle actions. This domain documents it; it never processes subscription requests.`;
}

/** What llms.txt says, built from the guides and the reference model. */
export function llmsIndex(guides: GuideEntry[], model: ReferenceModel): LlmsIndex {
  const listed = listedGuides(guides);
  const endpoint = `${model.endpoint.method} ${model.endpoint.urlTemplate}`;
  return {
    title: siteConfig.title,
    summary: llmsSummary(model),
    info: [
      `Every action is a \`${endpoint}\` request to the shop’s own site, with the action named in the JSON body field \`${model.envelope.selector}\` and that site’s API key in \`${model.envelope.credential}\`. Each site has its own endpoint and its own key; there is no central host.`,
      `The contract is an OpenAPI document; every reference page below is generated from it. A read-only product-information MCP server (Streamable HTTP, no credentials) runs at ${siteConfig.mcpUrl}.`,
    ],
    sections: [
      { title: 'Docs', links: listed.filter((guide) => !optionalGuides.has(guide.id)).map(guideLink) },
      {
        title: 'API reference',
        links: [
          { name: 'API reference', url: publishedUrl(referenceIndexPath), notes: 'the endpoint and every action on one page, each linked' },
          { name: 'The endpoint', url: publishedUrl(endpointPagePath), notes: oneLine(`\`${endpoint}\`: ${model.endpoint.summary}`) },
          ...model.actions.map((action) => ({
            name: action.identifier,
            url: publishedUrl(actionPagePath(action.identifier)),
            notes: oneLine(`${action.deprecated ? 'Deprecated. ' : ''}${action.title}`),
          })),
        ],
      },
      {
        title: 'Downloads',
        links: [
          { name: 'OpenAPI document (JSON)', url: publishedUrl(openApiJsonPath), notes: 'the contract of the endpoint, OpenAPI 3.1, bundled in one file' },
          { name: 'OpenAPI document (YAML)', url: publishedUrl(openApiYamlPath), notes: 'the same document as YAML' },
          { name: 'Lifecycle workflows (Arazzo)', url: publishedUrl(arazzoYamlPath), notes: 'every action, a refusal and its recovery, the walks there and back and a throttled request, as Arazzo 1.0 workflows `redocly respect` runs against a site' },
          { name: 'MCP server card', url: publishedUrl(serverCardPath), notes: 'how to reach the read-only product-information MCP server' },
          { name: 'Complete documentation', url: publishedUrl(llmsFullTxtPath), notes: 'every page of this site, guides and reference, as one Markdown file' },
        ],
      },
      { title: 'Optional', links: listed.filter((guide) => optionalGuides.has(guide.id)).map(guideLink) },
    ].filter((section) => section.links.length > 0),
  };
}

function linkLine(link: LlmsLink): string {
  return `- [${link.name}](${link.url})${link.notes ? `: ${link.notes}` : ''}`;
}

/** The llms.txt text, in the proposal's order: H1, block quote, paragraphs, H2 sections of link lists. */
export function llmsTxt(index: LlmsIndex): string {
  const blocks = [
    `# ${index.title}`,
    `> ${index.summary}`,
    ...index.info,
    ...index.sections.map((section) => [`## ${section.title}`, '', ...section.links.map(linkLine)].join('\n')),
  ];
  return `${blocks.join('\n\n')}\n`;
}

/** A hand-written page, rendered and turned into Markdown by the caller, for llms-full.txt. */
export interface GuideText extends GuideEntry {
  markdown: string;
}

/** A generated page, rendered with the site's own components and turned into Markdown by the caller. */
export interface RenderedPage {
  title: string;
  url: string;
  description: string;
  markdown: string;
}

/**
 * One page of llms-full.txt: its whole section, from its H1 to the last line of its text. The
 * product-information server returns exactly this text for the page.
 */
export interface LlmsFullPage {
  title: string;
  url: string;
  description: string;
  markdown: string;
}

function llmsFullPage(page: RenderedPage): LlmsFullPage {
  const markdown = [`# ${page.title}`, page.url, ...(page.description.trim() === '' ? [] : [`> ${oneLine(page.description)}`]), page.markdown.trim()].join('\n\n');
  return { title: page.title, url: page.url, description: oneLine(page.description), markdown };
}

/**
 * The pages of llms-full.txt in order: the guides in reading order, then the reference pages.
 * Each starts with its own H1 and its address, so no heading of the file repeats a page's.
 */
export function llmsFullPages(guides: GuideText[], references: RenderedPage[]): LlmsFullPage[] {
  const guidePages = listedGuides(guides).map((guide) => {
    const page = guides.find((candidate) => candidate.id === guide.id) ?? { ...guide, markdown: '' };
    return llmsFullPage({ title: page.title, url: publishedUrl(guidePath(page.id)), description: page.description, markdown: page.markdown });
  });
  return [...guidePages, ...references.map(llmsFullPage)];
}

/** llms-full.txt: every page of the site as Markdown, one after the other. */
export function llmsFullTxt(pages: LlmsFullPage[]): string {
  return `${pages.map((page) => page.markdown).join('\n\n')}\n`;
}

function escapedForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The pages of a built llms-full.txt, as `llmsFullPages` wrote them: a page starts where an H1
 * line is followed by a blank line and an address of the documentation site on a line of its own.
 */
export function llmsFullSections(text: string): LlmsFullPage[] {
  const start = new RegExp(`^# (.+)\n\n(${escapedForPattern(siteConfig.docsUrl)}/\\S*)\n\n`, 'gm');
  const starts = [...text.matchAll(start)];
  return starts.map((match, index) => {
    const end = starts[index + 1]?.index ?? text.length;
    const markdown = text.slice(match.index, end).replace(/\n+$/, '');
    const description = /^# .+\n\n\S+\n\n> (.+)/.exec(markdown)?.[1] ?? '';
    return { title: match[1] ?? '', url: match[2] ?? '', description, markdown };
  });
}
