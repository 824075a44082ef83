/**
 * What a reader types to use the Python library, written from the model: the install command, the
 * example script that pauses a subscription (the quickstart's action), the handling of a refusal
 * and of every other error, the options, and the reference of every method. The page
 * /clients/python/ shows these, and the tests run them as shown.
 */
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { readFacts } from '../../lib/contract/facts.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { toolsDownloadDirectory } from '../../contract-tools/tools-package.ts';
import { fixedErrorClassName, type FixedErrorKindId } from '../shared/error-kinds.ts';
import { exampleEnvironment, methodReference, type MethodReference } from '../shared/page-code.ts';
import { pythonClientClassName, pythonErrorClassName, pythonImportName, pythonMethodName } from './generate.ts';
import { pythonWheelName } from './package.ts';

/** The file name the page gives the example script. */
export const pythonExampleScriptFile = 'pause.py';

/** Where the site publishes the wheel, under its docs URL. */
export function pythonWheelUrl(docsUrl: string, version: string): string {
  return `${docsUrl.replace(/\/+$/, '')}/${toolsDownloadDirectory}/${pythonWheelName(version)}`;
}

/** A fresh virtual environment, and the wheel installed into it from the site. */
export function pythonInstallCommand(docsUrl: string, version: string): string {
  return `python3 -m venv .venv
.venv/bin/pip install ${pythonWheelUrl(docsUrl, version)}`;
}

const environmentLines = () => {
  const { siteUrl, apiKey, subscriptionId } = exampleEnvironment;
  return `site_url = os.environ.get("${siteUrl}")
api_key = os.environ.get("${apiKey}")
subscription_id = os.environ.get("${subscriptionId}", "")
if not site_url or not api_key or not subscription_id.isdigit():
    sys.exit("Set ${siteUrl}, ${apiKey} and ${subscriptionId} first.")`;
};

/**
 * The whole example: reads the environment, pauses the subscription, prints the answer. An error
 * of the library, or a base URL the constructor refuses (a `ValueError`, such as a host without
 * its scheme), ends it with the error's name and message rather than a traceback, as the PHP and
 * TypeScript examples end.
 */
export function pythonExampleScript(contract: ExecutableContract): string {
  const facts = readFacts(contract.document);
  const base = fixedErrorClassName('base', 'python');
  return `import os
import sys

from ${pythonImportName} import ${[base, pythonClientClassName].sort().join(', ')}

${environmentLines()}

try:
    client = ${pythonClientClassName}(site_url, api_key)
    answer = client.${pythonMethodName(facts.quickstartAction)}({"${facts.subscriptionField}": int(subscription_id)})
except (${base}, ValueError) as error:
    # A refusal, a wrong key, a throttled site, no answer, or a base URL without its scheme.
    sys.exit(f"{type(error).__name__}: {error}")
print(answer)
`;
}

export function pythonRunCommand(): string {
  return `.venv/bin/python ${pythonExampleScriptFile}`;
}

/** Handling the refusal of a status, then any other error of the library, from the most particular class to the base. */
export function pythonErrorsExample(contract: ExecutableContract): string {
  const facts = readFacts(contract.document);
  const names = (kinds: FixedErrorKindId[]) => kinds.map((kind) => fixedErrorClassName(kind, 'python'));
  const [base, noAnswer, throttled, invalidField] = names(['base', 'noAnswer', 'throttled', 'invalidField']);
  const conflict = pythonErrorClassName(contract.errors.transitionNotAllowed.status);
  const currentStatus = pythonMethodName(contract.errors.currentStatusMember);
  const allowedActions = pythonMethodName(contract.errors.allowedActionsMember);
  const allowedFields = `{"${facts.subscriptionField}": int(subscription_id)}`;
  return `import json
import os
import sys

from ${pythonImportName} import ${[base, conflict, invalidField, noAnswer, pythonClientClassName, throttled].sort().join(', ')}

${environmentLines()}

# Every attempt, retried or not: its outcome, status, duration and the wait before the next.
client = ${pythonClientClassName}(site_url, api_key, on_attempt=lambda report: print(json.dumps(report), file=sys.stderr))
try:
    print(client.${pythonMethodName(facts.quickstartAction)}(${allowedFields}))
except ${conflict} as refused:
    # The subscription's status refuses the action: it says which actions that status allows,
    # and send() sends one of them by its name.
    print(f"The subscription is {refused.${currentStatus}}; it allows: {refused.${allowedActions}}")
except ${invalidField} as invalid:
    print(f"Nothing was sent: {invalid}")
except ${noAnswer} as silent:
    # A timeout or a failed connection after the policy's retries: the action may have gone through,
    # and sending it again is safe.
    print(f"No answer after {silent.attempts} attempts: {silent}")
except ${throttled} as throttled:
    print(f"Still throttled after {throttled.attempts} attempts: try again later.")
except ${base} as error:
    print(f"{type(error).__name__}: {error}")
`;
}

/** The client's options, each with its default, as a reader writes them. */
export function pythonOptionsExample(contract: ExecutableContract): string {
  const facts = readFacts(contract.document);
  const { siteUrl, apiKey } = exampleEnvironment;
  return `client = ${pythonClientClassName}(
    os.environ["${siteUrl}"],
    os.environ["${apiKey}"],
    timeout=${retryPolicy.attemptTimeoutSeconds},  # seconds one attempt may take in all
    pace=${retryPolicy.courtesyIntervalSeconds},  # seconds between two requests to one site; 0 switches the pace off
    max_attempts=${retryPolicy.maxAttempts},  # attempts in all; 1 never sends a request again
    max_retry_wait=${retryPolicy.retryAfterCapSeconds},  # seconds: a longer ${contract.retryAfterHeader} raises at once
    user_agent="my-shop-sync/2.0",
)

# One call with its own timeout:
client.${pythonMethodName(facts.quickstartAction)}({"${facts.subscriptionField}": 42}, timeout=5)
`;
}

/** Every method of the client, for the page's reference. */
export function pythonMethodReference(contract: ExecutableContract): MethodReference[] {
  return methodReference(contract, pythonMethodName);
}
