import type { ReferenceModel } from '../../lib/contract/model.ts';
import { refusalDetails } from '../../lib/contract/refusal-details.ts';
import { camelCaseName, composerPackageName, typescriptClientClassName, typescriptClientPackageName } from '../../lib/samples/client-libraries.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { arazzoYamlPath } from '../../lib/site/discovery.ts';
import { detailGetterName } from '../../clients/php/exception-classes.ts';
import { near, says } from './facts.ts';
import type { EvaluationQuestion } from './questions.ts';

/**
 * Questions a plain agent asks about the client libraries, the workflows and the conformance
 * suite, kept apart from the published evaluation: they were written before the search was tuned
 * for questions of this kind, and nothing in the search is tuned to them. `npm run evaluate:mcp --
 * --held-out` asks them; their median shows how the search does on questions it was not fitted
 * to. Each fact is read from the model, the retry policy or the libraries' own names, and is one
 * that holds whatever else the library pages say (a refusal carries the allowed actions, the
 * package's name).
 */
export function heldOutQuestions(model: ReferenceModel): EvaluationQuestion[] {
  const refusal = refusalDetails(model.responses, model.lifecycle.states);
  const conflict = model.responses.find((response) => response.status === '409');
  if (conflict === undefined) throw new Error('The contract has no 409 for the held-out questions to ask about');
  const seconds = (count: number) => `${count} second`;
  const restRoute = `?rest_route=${model.endpoint.urlPath.replace(/^\/wp-json/, '')}`;
  const questions: Omit<EvaluationQuestion, 'audience'>[] = [
    {
      id: 'typescript-409-allowed',
      question: 'With the TypeScript client, how do I catch a 409 and read which actions are allowed?',
      facts: [near(300, camelCaseName(refusal.currentStatus), camelCaseName(refusal.allowedActions))],
    },
    {
      id: 'php-refusal-allowed',
      question: 'In the PHP library, how do I find out which actions a refused subscription allows?',
      facts: [says(`${detailGetterName(refusal.allowedActions)}(`)],
    },
    // The page installs npm pack's tarball of the package, named as npm names a scoped package's: `@scope/name` → `scope-name-<version>.tgz`.
    { id: 'typescript-install', question: 'How do I install the TypeScript client?', facts: [near(200, 'npm install', typescriptClientPackageName.replace(/^@/, '').replace('/', '-'))] },
    { id: 'php-install', question: 'How do I install the PHP library with Composer?', facts: [near(300, 'composer', composerPackageName)] },
    { id: 'typescript-worker', question: 'Can I use the TypeScript client inside a Cloudflare Worker?', facts: [near(600, 'worker', typescriptClientClassName)] },
    { id: 'php-plain-permalinks', question: 'How does the PHP library reach a shop without pretty permalinks?', facts: [says(restRoute)] },
    { id: 'php-timeouts', question: 'What timeouts does the PHP library use?', facts: [near(40, seconds(retryPolicy.connectTimeoutSeconds), 'connect'), says(seconds(retryPolicy.attemptTimeoutSeconds))] },
    { id: 'typescript-throttled', question: 'How many times does the TypeScript client retry a throttled request?', facts: [near(40, String(retryPolicy.maxAttempts), 'attempts')] },
    { id: 'workflows-download', question: 'Where do I download the Arazzo workflows?', facts: [says(arazzoYamlPath)] },
    { id: 'workflows-sandbox', question: 'How do I run the lifecycle workflows against the sandbox?', facts: [says('respect'), says(arazzoYamlPath.split('/').at(-1) ?? '')] },
    { id: 'conformance-run', question: 'How do I run the conformance suite against my WordPress install?', facts: [near(200, 'conformance', '--base-url', '--api-key')] },
    { id: 'conformance-subscriptions', question: 'Does the conformance suite change my subscriptions?', facts: [near(300, 'subscription', 'test')] },
  ];
  return questions.map((question) => ({ ...question, audience: 'integrator' as const }));
}
