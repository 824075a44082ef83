import type { Endpoint } from '../../contract/model.ts';
import { retryPolicy } from '../retry-policy.ts';
import { shellQuote } from '../shell-quote.ts';

const { connectTimeoutSeconds, attemptTimeoutSeconds } = retryPolicy;

/** The curl command that sends `body` to the endpoint; the quickstart shows the same one. */
export function curlSample(endpoint: Endpoint, body: unknown): string {
  // No comment line: Expressive Code leaves comments out of what a terminal frame's copy button
  // copies, and the copied command should be exactly the one on the page.
  return [
    // `--include` shows the status line and the headers; `--fail-with-body` makes an error status
    // fail the command. curl follows no redirect unless told to, which keeps the POST a POST.
    `curl --include --fail-with-body \\`,
    `  --connect-timeout ${connectTimeoutSeconds} --max-time ${attemptTimeoutSeconds} \\`,
    `  --request ${endpoint.method} ${shellQuote(endpoint.exampleUrl)} \\`,
    `  --header 'Content-Type: application/json' \\`,
    `  --data ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join('\n');
}
