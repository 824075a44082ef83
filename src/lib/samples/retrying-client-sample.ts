/**
 * The retrying clients of the errors guide: one client per language, each in its own module under
 * `retrying-client/`, all written from the same endpoint, statuses and retry policy.
 */
import type { Endpoint } from '../contract/model.ts';
import type { CodeSample, SampleLanguage } from './code-samples.ts';
import type { SampleStatuses } from './sample-statuses.ts';
import { sampleLanguages } from './code-samples.ts';
import type { RetryPolicy } from './retry-policy.ts';
import { retryPolicy } from './retry-policy.ts';
import type { ClientParts } from './retrying-client/client-parts.ts';
import { retryingJavascriptClient } from './retrying-client/javascript.ts';
import { retryingPhpClient } from './retrying-client/php.ts';
import { retryingPythonClient } from './retrying-client/python.ts';

export { retryingJavascriptClient, retryingPhpClient, retryingPythonClient };

const clientWriters = { javascript: retryingJavascriptClient, php: retryingPhpClient, python: retryingPythonClient } as const;

/** The languages a retrying client is written in, in the order of the action pages' tabs. */
export const retryingClientLanguages: readonly SampleLanguage[] = sampleLanguages
  .map(({ language }) => language)
  .filter((language) => language in clientWriters);

/** The retrying clients, for the errors guide's tabs, in the order of the action pages' tabs. */
export function retryingClientSamples(endpoint: Endpoint, statuses: SampleStatuses, example: Record<string, unknown>, policy: RetryPolicy = retryPolicy): CodeSample[] {
  const parts: ClientParts = { endpoint, statuses, policy, example };
  const hasClient = (language: SampleLanguage): language is keyof typeof clientWriters => language in clientWriters;
  return sampleLanguages.flatMap(({ language, label, highlight }) => (hasClient(language) ? [{ language, label, highlight, code: clientWriters[language](parts) }] : []));
}
