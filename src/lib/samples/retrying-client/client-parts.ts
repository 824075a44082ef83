import type { Endpoint } from '../../contract/endpoint.ts';
import { fillInComment, placeholdersIn, type SampleStatuses } from '../code-samples.ts';
import type { RetryPolicy } from '../retry-policy.ts';

/** What every retrying client are written from. */
export interface ClientParts {
  endpoint: Endpoint;
  statuses: SampleStatuses;
  policy: RetryPolicy;
  /** The request example the usage at the end sends. */
  example: Record<string, unknown>;
}

export function fillIn(marker: string, { endpoint, example }: ClientParts): string {
  return fillInComment(marker, [
    ...endpoint.variables.map((variable) => variable.defaultValue),
    ...placeholdersIn(example).map((placeholder) => `${placeholder} in the body`),
  ]);
}
