import { z } from 'zod';
import { sampleLanguageNames } from '../lib/samples/code-samples.ts';
import { guidePaths } from '../lib/site/navigation.ts';
import type { ProductKnowledge } from './knowledge.ts';
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

function text(value: string): PromptMessage {
  return { role: 'user', content: { type: 'text', text: value } };
}

/** The three prompts, built once per process; the tools they name are this server's own. */
export function promptDefinitions(knowledge: ProductKnowledge): Record<string, PromptDefinition> {
  const { model } = knowledge;
  const actions = nonEmpty(model.actions.map((action) => action.identifier), 'action');
  return {
    integrate_action: {
      title: 'Integrate an action',
      description: 'Write client code that sends one lifecycle action to a shop and reads every answer it can get.',
      argsSchema: z.object({ action: z.enum(actions), language: z.enum(sampleLanguageNames).optional() }),
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
      description: 'Make a client wait on a 429 as Retry-After says, retry what is worth retrying, and stop in time: the retry policy of the errors guide.',
      argsSchema: z.object({}),
      messages: () => [
        text('Make my client follow the retry policy of this guide exactly: its timeouts, which answers to retry, how long to wait, when to give up. Use its retrying client if my language has one.'),
        ...pageMessage(knowledge, guidePaths.errors),
      ],
    },
    check_install: {
      title: 'Check an install',
      description: 'Check that a shop answers as the contract says, with the conformance suite, step by step.',
      argsSchema: z.object({}),
      messages: () => [text('Walk me through checking a shop against the contract with the conformance suite this guide describes, step by step, and tell me how to read its report.'), ...pageMessage(knowledge, guidePaths.conformance)],
    },
  };
}
