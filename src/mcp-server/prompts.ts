import { completable } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sampleLanguage, sampleLanguageNames, type SampleLanguage } from '../lib/samples/code-samples.ts';
import { sampleStatuses } from '../lib/samples/sample-statuses.ts';
import { retryingClientLanguages, retryingClientSamples } from '../lib/samples/retrying-client-sample.ts';
import { guidePaths } from '../lib/site/navigation.ts';
import type { ProductKnowledge } from './knowledge.ts';
import { blocksOf, pageHeadings, sectionBounds } from './passages.ts';
import { docsAddress, nonEmpty } from './tools/tool.ts';

interface PromptMessage {
  role: 'user';
  content: { type: 'text'; text: string } | { type: 'resource'; resource: { uri: string; mimeType: string; text: string } };
}

/** A prompt an integrator starts from: its arguments and the messages it opens a conversation with. */
export interface PromptDefinition {
  title: string;
  description: string;
  argsSchema: z.ZodObject;
  messages(args: Record<string, unknown>): PromptMessage[];
}

function pageMessage(knowledge: ProductKnowledge, pagePath: string): PromptMessage[] {
  const page = knowledge.pages.find((candidate) => candidate.url === docsAddress(pagePath));
  return page === undefined ? [] : [{ role: 'user', content: { type: 'resource', resource: { uri: page.url, mimeType: 'text/markdown', text: page.markdown } } }];
}

/**
 * The sections of the errors guide a retrying client follows: the rate limits (what a 429 and its
 * Retry-After mean, the pace) and the retry policy, by their anchors on the built page; and the
 * heading that introduces the retrying clients.
 */
const throttlingSections = ['rate-limits', 'the-retry-policy'];
const retryingClientSection = 'a-client-that-does-all-of-this';

/**
 * The errors guide cut to what one language needs: the policy's sections, the introduction of the
 * retrying client and that language's client alone, written by the same function as the guide's
 * tab. The whole page when a section cannot be found, so that nothing is ever left out.
 */
function throttlingMessage(knowledge: ProductKnowledge, language: SampleLanguage): PromptMessage[] {
  const page = knowledge.pages.find((candidate) => candidate.url === docsAddress(guidePaths.errors));
  if (page === undefined) return [];
  const headings = pageHeadings(page.markdown);
  const section = (anchor: string) => {
    const index = headings.findIndex((heading) => heading.anchor === anchor);
    if (index < 0) return undefined;
    const { start, end } = sectionBounds(page.markdown, headings, index);
    return page.markdown.slice(start, end).trim();
  };
  const policy = throttlingSections.map(section);
  const clientIntroduction = blocksOf(section(retryingClientSection) ?? '').slice(0, 2);
  const [action] = knowledge.model.actions;
  const client =
    action === undefined
      ? undefined
      : retryingClientSamples(knowledge.model.endpoint, sampleStatuses(knowledge.model.responses), action.requestExample.value).find((sample) => sample.language === language);
  if (policy.some((text) => text === undefined) || clientIntroduction.length === 0 || client === undefined) return pageMessage(knowledge, guidePaths.errors);
  const text = [`# ${page.title}`, page.url, ...policy, ...clientIntroduction, `**${client.label}**`, `\`\`\`${client.highlight}\n${client.code.trimEnd()}\n\`\`\``].join('\n\n');
  return [{ role: 'user', content: { type: 'resource', resource: { uri: `${page.url}#${throttlingSections[0] ?? ''}`, mimeType: 'text/markdown', text } } }];
}

/** A prompt argument that names one of `values`: its description lists them, and completion offers them. */
function oneOf<T extends string>(values: readonly [T, ...T[]], what: string) {
  return completable(z.enum(values).describe(`${what}: one of ${values.join(', ')}`), (typed) => values.filter((value) => value.startsWith(typed ?? '')));
}

function text(value: string): PromptMessage {
  return { role: 'user', content: { type: 'text', text: value } };
}

/** The three prompts, built once per process; the tools they name are this server's own. */
export function promptDefinitions(knowledge: ProductKnowledge): Record<string, PromptDefinition> {
  const { model } = knowledge;
  const actions = nonEmpty(model.actions.map((action) => action.identifier), 'action');
  const retryingLanguages = nonEmpty(retryingClientLanguages, 'retrying client language');
  return {
    integrate_action: {
      title: 'Integrate an action',
      description: 'Write client code that sends one lifecycle action to a shop and reads every answer it can get.',
      argsSchema: z.object({ action: oneOf(actions, 'The action identifier'), language: oneOf(sampleLanguageNames, 'The language of the code (optional)').optional() }),
      messages: ({ action, language }) => [
        text(
          [
            `I want to send \`${String(action)}\` to a shop's ${model.endpoint.method} ${model.endpoint.urlTemplate} endpoint${language === undefined ? '' : ` in ${String(language)}`}.`,
            `Start from the site's own sample (tool code_sample), read the fields, the statuses it accepts and its errors (tool action_details, tool lifecycle),`,
            knowledge.checkRequest === undefined
              ? `and try the body I will send against the sandbox (${docsAddress(guidePaths.sandbox)}) before writing the code. Keep the sample's timeouts, follow no redirect,`
              : `and check the body I will send with tool check_request before writing the code. Keep the sample's timeouts, follow no redirect,`,
            `and put the key in \`${model.envelope.credential}\` from configuration, never in the code.`,
          ].join(' '),
        ),
      ],
    },
    handle_throttling: {
      title: 'Handle throttling and retries',
      description: `Make a client wait on a 429 as Retry-After says, retry what is worth retrying, and stop in time: the retry policy of the errors guide. With a language (${retryingLanguages.join(', ')}), only the policy and that language's retrying client.`,
      argsSchema: z.object({ language: oneOf(retryingLanguages, 'The language of the retrying client (optional; without it, the whole errors guide)').optional() }),
      messages: ({ language }) =>
        language === undefined
          ? [
              text(
                'Make my client follow the retry policy of this guide exactly: its timeouts, which answers to retry, how long to wait, when to give up. Use its retrying client if my language has one.',
              ),
              ...pageMessage(knowledge, guidePaths.errors),
            ]
          : [
              text(
                `Make my ${sampleLanguage(language as SampleLanguage).label} client follow the retry policy of this guide exactly: its timeouts, which answers to retry, how long to wait, when to give up. Start from its retrying client.`,
              ),
              ...throttlingMessage(knowledge, language as SampleLanguage),
            ],
    },
    check_install: {
      title: 'Check an install',
      description: 'Check that a shop answers as the contract says, with the conformance suite, step by step.',
      argsSchema: z.object({}),
      messages: () => [
        text('Walk me through checking a shop against the contract with the conformance suite this guide describes, step by step, and tell me how to read its report.'),
        ...pageMessage(knowledge, guidePaths.conformance),
      ],
    },
  };
}
