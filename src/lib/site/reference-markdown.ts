import type { ReferenceModel } from '../contract/model.ts';
import { actionErrorAnswers } from '../contract/error-bodies.ts';
import { acceptedStates, targetStates } from '../contract/lifecycle.ts';
import { actionPagePath, endpointPagePath } from './navigation.ts';
import { listInWords } from '../prose.ts';
import { siteConfig } from '../../site-config.ts';

/**
 * A page of the documentation as Markdown, with its published address. The reference pages are
 * written here from the model, once, for every reader that wants them as text: the
 * product-information server's tools and the site's `llms.txt` files.
 */
export interface MarkdownPage {
  title: string;
  url: string;
  markdown: string;
}

/** A path of the documentation site as the absolute URL it is published at. */
export function publishedUrl(pagePath: string): string {
  return new URL(pagePath, siteConfig.docsUrl).href;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function jsonBlock(value: unknown): string[] {
  return ['```json', JSON.stringify(value, null, 2), '```'];
}

/** An action's reference page as Markdown, from the model. */
export function actionMarkdown(model: ReferenceModel, identifier: string): MarkdownPage | undefined {
  const action = model.actions.find((candidate) => candidate.identifier === identifier);
  if (action === undefined) return undefined;
  const fields = action.fields.map((field) => `- \`${field.name}\` (${field.type}, ${field.required ? 'required' : 'optional'}): ${oneLine(field.description)}`);
  const errors = action.errors.map((error) => `- ${error.status}${error.code === null ? ' (no body contract)' : ` \`${error.code}\``}: ${oneLine(error.when)}`);
  const answers = actionErrorAnswers(model, action);
  const errorBodies = answers.bodies.flatMap((body) => ['', `${body.status}, ${body.summary}:`, '', ...jsonBlock(body.value)]);
  const throttled = [
    '',
    `${answers.throttled.status}: the body has no contract, as it comes from the host, a firewall or a CDN; read the status and the \`${answers.throttled.header}\` header, for example \`${answers.throttled.header}: ${answers.throttled.examples[0] ?? ''}\`.`,
  ];
  const markdown = [
    `# ${action.identifier}: ${action.title}`,
    '',
    action.description.trim(),
    '',
    `Send \`${model.endpoint.method} ${model.endpoint.urlTemplate}\` with \`"${model.envelope.selector}": "${action.identifier}"\` in the JSON body.`,
    '',
    `Accepted from: ${listInWords(acceptedStates(action.transition), 'and')}. Leads to: ${listInWords(targetStates(action.transition), 'or')}.`,
    '',
    '## Fields',
    ...fields,
    '',
    '## Request example',
    ...jsonBlock(action.requestExample.value),
    '',
    '## Success response',
    ...jsonBlock(action.successExample.value),
    '',
    '## Errors',
    ...errors,
    '',
    '### Error bodies',
    ...errorBodies,
    ...throttled,
  ].join('\n');
  return { title: `${action.identifier}: ${action.title}`, url: publishedUrl(actionPagePath(action.identifier)), markdown: `${markdown}\n` };
}

/** The endpoint's reference page as Markdown, from the model. */
export function endpointMarkdown(model: ReferenceModel): MarkdownPage {
  const actions = model.actions.map((action) => `- [\`${action.identifier}\`](${publishedUrl(actionPagePath(action.identifier))}): ${action.title}`);
  const responses = model.responses.map((response) => `- ${response.status}: ${oneLine(response.description)}`);
  const markdown = [`# The endpoint`, '', `\`${model.endpoint.method} ${model.endpoint.urlTemplate}\``, '', model.endpoint.summary, '', '## Actions', ...actions, '', '## Responses', ...responses].join('\n');
  return { title: 'The endpoint', url: publishedUrl(endpointPagePath), markdown: `${markdown}\n` };
}

/** Every generated reference page as Markdown, in the order of the sidebar: the endpoint, then each action. */
export function referenceMarkdownPages(model: ReferenceModel): MarkdownPage[] {
  return [endpointMarkdown(model), ...model.actions.flatMap((action) => actionMarkdown(model, action.identifier) ?? [])];
}
