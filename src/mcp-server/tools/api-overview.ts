import { z } from 'zod';
import { factsOf } from '../../lib/contract/facts.ts';
import { actionPagePath, guidePaths } from '../../lib/site/navigation.ts';
import { sampleStatuses } from '../../lib/samples/sample-statuses.ts';
import { backoffSchedule, policyPhrases, retryPolicy } from '../../lib/samples/retry-policy.ts';
import { specRule, type SpecRuleId } from '../../lib/spec-rules.ts';
import { siteConfig } from '../../site-config.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineAnswer, defineTool, docsAddress, oneLine, readOnly } from './tool.ts';

/** The rules of the specification about versions an integrator relies on: what v1 promises. */
const versioningRules = ['9.3', '9.4', '9.2', '9.5'] as const satisfies readonly SpecRuleId[];

export const apiOverviewTool = defineTool({
  name: 'api_overview',
  title: 'API overview',
  description:
    'The one endpoint and its method, where the API key travels (no OAuth), every action in one line, the errors, what to do on a 429 (Retry-After, timeouts, attempts: the retry policy with its numbers), the courtesy pace and versioning.',
  annotations: readOnly,
  answer: apiOverviewAnswer,
});

/** The API in one answer: where it is, how the key travels, what it does, how it fails. */
function apiOverviewAnswer({ model }: ProductKnowledge) {
  const facts = factsOf(model);
  const siteVariable = model.endpoint.variables.find((variable) => variable.name === facts.siteVariable);
  const overview = {
    endpoint: facts.endpointUrlTemplate,
    plainPermalinksEndpoint: facts.plainPermalinkUrlTemplate,
    method: facts.method,
    whereItRuns: `On each operator's own WordPress site; each site has its own endpoint and its own key. {${facts.siteVariable}}: ${oneLine(siteVariable?.description ?? '')} On a site without pretty permalinks the same route is plainPermalinksEndpoint.`,
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
      backoffMaxSeconds: retryPolicy.backoffMaxSeconds,
      jitter: `Each backoff is shortened at random by up to ${policyPhrases(retryPolicy).jitter}.`,
      alsoRetried: 'A dropped connection and a timed-out attempt, after the backoff.',
      retryAfter: {
        forms: [`seconds (${facts.retryAfterSecondsExample})`, `an HTTP date (${facts.retryAfterDateExample}); a date already past means at once`],
        longestWaitSeconds: retryPolicy.retryAfterCapSeconds,
        longer: `A ${facts.retryAfterHeader} over ${retryPolicy.retryAfterCapSeconds} s is not waited out and not shortened: stop and report the throttle, so the work can be scheduled for later.`,
        missing: `A ${facts.rateLimitStatus} without a readable ${facts.retryAfterHeader} is retried with the backoff.`,
      },
      followRedirects: false,
      guide: docsAddress(guidePaths.errors),
    },
    pace: `Send about one request every ${retryPolicy.courtesyIntervalSeconds} s to each site: a courtesy default, not enforced by the service.`,
    versioning: [`The version is in the path (${facts.versionNamespace}).`, ...versioningRules.map((id) => specRule(id).statement)].join(' '),
    documentation: siteConfig.docsUrl,
  };
  return defineAnswer({
    inputSchema: z.object({}),
    outputSchema: z.object({
      endpoint: z.string(),
      plainPermalinksEndpoint: z.string(),
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
        backoffMaxSeconds: z.number(),
        jitter: z.string(),
        alsoRetried: z.string(),
        retryAfter: z.object({ forms: z.array(z.string()), longestWaitSeconds: z.number(), longer: z.string(), missing: z.string() }),
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
