import {
  apiKeyInBodyCheck,
  credentialInBodyOnlyCheck,
  eightActionsCheck,
  jsonOnlyRequestCheck,
  postOnlyCheck,
  rateLimitResponseCheck,
  singleEndpointCheck,
  siteVariableCheck,
  type ContractCheck,
} from '../../src/lib/contract/gate/checks.ts';
import { dereference, isRecord, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import type { SpecRuleId } from '../../src/lib/spec-rules.ts';
import type { RuleCheck } from './rule-check.ts';

type Mapping = Record<string, unknown>;

function mapping(value: unknown, what: string): Mapping {
  if (!isRecord(value)) throw new Error(`the bundled contract has no ${what}`);
  return value;
}

function operation(document: OpenApiDocument): Mapping {
  return mapping(mapping(document.paths?.['/action'], 'path /action').post, 'POST /action');
}

function requestContent(document: OpenApiDocument): Mapping {
  return mapping(mapping(dereference(document, operation(document).requestBody), 'request body').content, 'request body content');
}

function server(document: OpenApiDocument): Mapping {
  return mapping(document.servers?.[0], 'server');
}

function firstActionBranch(document: OpenApiDocument): Mapping {
  const schema = mapping(mapping(requestContent(document)['application/json'], 'JSON request').schema, 'request schema');
  const branches = schema.oneOf;
  if (!Array.isArray(branches)) throw new Error('the request schema has no oneOf');
  return mapping(dereference(document, branches[0]), 'first action schema');
}

/**
 * A rule the contract keeps, guarded by one of the gate's contract checks. The check must find
 * nothing in the real contract, and it must find the `breakage` once that is applied to a copy of
 * it: a check that cannot fail is reported as a failure of the rule, not as a pass.
 */
interface ContractRule {
  rule: SpecRuleId;
  check: ContractCheck;
  /** What the contract says while the rule is kept. */
  keeps: string;
  /** A plausible edit that breaks the rule, in words and as an edit of a copy. */
  breakage: string;
  breakRule(document: OpenApiDocument): void;
}

const contractRules: ContractRule[] = [
  {
    rule: '1.2',
    check: singleEndpointCheck,
    keeps: 'the contract has exactly one path, the action endpoint',
    breakage: 'a second path',
    breakRule: (document) => {
      document.paths = { ...document.paths, '/status': document.paths?.['/action'] };
    },
  },
  {
    rule: '4.1b',
    check: singleEndpointCheck,
    keeps: 'the endpoint is https://{site}/wp-json/service/v1/action',
    breakage: 'the path renamed to /actions',
    breakRule: (document) => {
      document.paths = { '/actions': document.paths?.['/action'] };
    },
  },
  {
    rule: '9.1',
    check: singleEndpointCheck,
    keeps: 'the version is the path segment v1',
    breakage: 'a server under /wp-json/service/v2',
    breakRule: (document) => {
      server(document).url = String(server(document).url).replace('/v1', '/v2');
    },
  },
  {
    rule: '1.3',
    check: siteVariableCheck,
    keeps: 'the server is each operator’s own site, the {site} variable',
    breakage: 'one shared host instead of {site}',
    breakRule: (document) => {
      const only = server(document);
      only.url = 'https://api.subscription-lifecycle.example/wp-json/service/v1';
      delete only.variables;
    },
  },
  {
    rule: '4.1-r2',
    check: siteVariableCheck,
    keeps: 'no server of the contract is the publisher’s domain',
    breakage: 'the documentation domain as the server',
    breakRule: (document) => {
      const only = server(document);
      only.url = 'https://docs.subscription-lifecycle.example/wp-json/service/v1';
      delete only.variables;
    },
  },
  {
    rule: '4.1a',
    check: postOnlyCheck,
    keeps: 'POST is the endpoint’s only method',
    breakage: 'a GET beside the POST',
    breakRule: (document) => {
      mapping(document.paths?.['/action'], 'path').get = structuredClone(operation(document));
    },
  },
  {
    rule: '4.1a',
    check: jsonOnlyRequestCheck,
    keeps: 'application/json is the request’s only media type',
    breakage: 'a form-encoded request body beside JSON',
    breakRule: (document) => {
      const content = requestContent(document);
      content['application/x-www-form-urlencoded'] = structuredClone(content['application/json']);
    },
  },
  {
    rule: '4.1-r1',
    check: postOnlyCheck,
    keeps: 'every action goes through the one POST operation',
    breakage: 'a PUT operation for some actions',
    breakRule: (document) => {
      mapping(document.paths?.['/action'], 'path').put = structuredClone(operation(document));
    },
  },
  {
    rule: '4.1c',
    check: eightActionsCheck,
    keeps: 'the request body selects exactly the eight specified actions',
    breakage: 'cancel_subscription renamed to cancel',
    breakRule: (document) => {
      mapping(mapping(firstActionBranch(document).properties, 'properties').action, 'action').const = 'cancel';
    },
  },
  {
    rule: '2.1',
    check: apiKeyInBodyCheck,
    keeps: 'every action’s body requires the api_key field',
    breakage: 'api_key optional for one action',
    breakRule: (document) => {
      const branch = firstActionBranch(document);
      branch.required = (branch.required as string[]).filter((field) => field !== 'api_key');
    },
  },
  {
    rule: '5.1',
    check: apiKeyInBodyCheck,
    keeps: 'api_key is a string field of the JSON body',
    breakage: 'api_key as an integer',
    breakRule: (document) => {
      const properties = mapping(firstActionBranch(document).properties, 'properties');
      properties.api_key = { type: 'integer', writeOnly: true };
    },
  },
  {
    rule: '5.7',
    check: credentialInBodyOnlyCheck,
    keeps: 'the contract declares no OAuth 2.0 or OpenID Connect scheme',
    breakage: 'an oauth2 security scheme',
    breakRule: (document) => {
      document.components = {
        ...document.components,
        securitySchemes: { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: {} } } } },
      };
    },
  },
  {
    rule: '7.1',
    check: rateLimitResponseCheck,
    keeps: 'the 429 declares Retry-After',
    breakage: 'a 429 without Retry-After',
    breakRule: (document) => {
      const responses = mapping(operation(document).responses, 'responses');
      responses['429'] = { description: 'Throttled.' };
    },
  },
  {
    rule: '8.2',
    check: rateLimitResponseCheck,
    keeps: 'the endpoint documents the host’s 429',
    breakage: 'the 429 removed',
    breakRule: (document) => {
      delete mapping(operation(document).responses, 'responses')['429'];
    },
  },
];

function findingsOf(check: ContractCheck, document: OpenApiDocument): string[] {
  return check.run(document).map((finding) => `${finding.pointer}: ${finding.message}`);
}

export const contractRuleChecks: RuleCheck[] = contractRules.map((entry) => ({
  rule: entry.rule,
  name: `${entry.keeps} (the gate’s ${entry.check.name} check)`,
  run({ document }) {
    const problems = findingsOf(entry.check, document).map((finding) => `the contract breaks the rule: ${finding}`);
    const broken = structuredClone(document);
    entry.breakRule(broken);
    if (findingsOf(entry.check, broken).length === 0) {
      problems.push(`the gate’s ${entry.check.name} check no longer notices ${entry.breakage}`);
    }
    return problems;
  },
}));
