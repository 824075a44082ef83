import type { ExecutableContract } from '../lib/executable-contract.ts';
import type { Answer } from './answer.ts';
import { errorAnswer } from './answer.ts';

/**
 * The first stage: does the request reach the one endpoint? WordPress answers any other method
 * or path under `/wp-json/` with `rest_no_route`; so does the sandbox, for every path it serves,
 * including the endpoint's path under another base than its own (a subdirectory it was not
 * installed in). The query string plays no part, as in WordPress.
 */
export function routeRequest(
  contract: ExecutableContract,
  basePath: string,
  method: string,
  target: string,
): Answer | undefined {
  const { endpoint } = contract.model;
  const pathname = target.split('?', 1)[0] ?? '';
  if (method === endpoint.method && pathname === `${basePath}${endpoint.urlPath}`) return undefined;
  const { noRoute } = contract.errors;
  return errorAnswer(contract, noRoute, noRoute.message);
}
