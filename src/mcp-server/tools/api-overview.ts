import { z } from 'zod';
import { factsOf } from '../../lib/contract/facts.ts';
import { actionPagePath, guidePaths } from '../../lib/site/navigation.ts';
import { sampleStatuses } from '../../lib/samples/code-samples.ts';
import { backoffSchedule, retryPolicy } from '../../lib/samples/retry-policy.ts';
import { siteConfig } from '../../site-config.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineTool, docsAddress } from './tool.ts';

/** The API in one answer: where it is, how the key travels, what it does, how it fails. */
export function apiOverviewTool({ model }: ProductKnowledge) {
  const facts = factsOf(model);
  const overview = {
    endpoint: facts.endpointUrlTemplate,
    method: facts.method,
    whereItRuns: `On each operator's own WordPress site: {${facts.siteVariable}} is that site's host. Each site has its own endpoint and its own key.`,
    authentication: {
      field: facts.credentialField,
      carriedIn: 'the JSON request body',
      oauth: 'OAuth 2.0 and dynamic client registration are not used.',
      guide: docsAddress(guidePaths.authentication),
    },
    actionField: facts.actionField,
    actions: model.actions.map((action) => ({ identifier: action.identifier, summary: action.title, page: docsAddress(actionPagePath(action.identifier)) })),
    errors: model.responses.filter((response) => response.isError).map((response) => ({ status: Number(response.status), codes: response.errorCodes.map((code) => code.code) })),
    rateLimit: `A ${facts.rateLimitStatus} comes from the hosting environment (host, firewall or CDN), not from the service, which does not throttle. Treat it as authoritative and wait as long as its ${facts.retryAfterHeader} header says before sending the same request again; give up after ${retryPolicy.maxAttempts} attempts in all.`,
    retryPolicy: {
      retriedStatuses: sampleStatuses(model.responses).retried,
      connectTimeoutSeconds: retryPolicy.connectTimeoutSeconds,
      attemptTimeoutSeconds: retryPolicy.attemptTimeoutSeconds,
      maxAttempts: retryPolicy.maxAttempts,
      backoffScheduleSeconds: backoffSchedule(retryPolicy),
      retryAfterCapSeconds: retryPolicy.retryAfterCapSeconds,
      followRedirects: false,
      guide: docsAddress(guidePaths.errors),
    },
    pace: `Send about one request every ${retryPolicy.courtesyIntervalSeconds} s to each site: a courtesy default, not enforced by the service.`,
    versioning: `The version is in the path (${facts.versionNamespace}); v1 only grows by additions (new actions, new optional fields), and breaking changes need a new version namespace.`,
    documentation: siteConfig.docsUrl,
  };
  return defineTool({
    inputSchema: z.object({}),
    outputSchema: z.object({
      endpoint: z.string(),
      method: z.string(),
      whereItRuns: z.string(),
      authentication: z.object({ field: z.string(), carriedIn: z.string(), oauth: z.string(), guide: z.string() }),
      actionField: z.string(),
      actions: z.array(z.object({ identifier: z.string(), summary: z.string(), page: z.string() })),
      errors: z.array(z.object({ status: z.number().int(), codes: z.array(z.string()) })),
      rateLimit: z.string(),
      retryPolicy: z.object({
        retriedStatuses: z.array(z.number().int()),
        connectTimeoutSeconds: z.number(),
        attemptTimeoutSeconds: z.number(),
        maxAttempts: z.number().int(),
        backoffScheduleSeconds: z.array(z.number()),
        retryAfterCapSeconds: z.number(),
        followRedirects: z.boolean(),
        guide: z.string(),
      }),
      pace: z.string(),
      versioning: z.string(),
      documentation: z.string(),
    }),
    run: () => overview,
  });
}
