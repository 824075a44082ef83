import { runContractRules, type ContractRule } from '../../src/gate/checks.ts';
import { lintBundledDocument } from '../../src/gate/redocly-lint.ts';
import { apiKeyInBodyRule } from '../../src/gate/rules/api-key-in-body.ts';
import { eightActionsRule } from '../../src/gate/rules/eight-actions.ts';
import { singleEndpointRule } from '../../src/gate/rules/single-endpoint.ts';
import { siteVariableRule } from '../../src/gate/rules/site-variable.ts';
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

/** A rule of `redocly.yaml`, by its id: the one home of a rule Redocly's assertions can express. */
interface RedoclyRule {
  redoclyRule: string;
}

/**
 * A rule the contract keeps, guarded by one of the gate's contract rules or by a rule of
 * `redocly.yaml`. The guard must find nothing in the real contract, and it must find the
 * `breakage` once that is applied to a copy of it: a guard that cannot fail is reported as a
 * failure of the rule, not as a pass.
 */
interface KeptRule {
  rule: SpecRuleId;
  check: ContractRule | RedoclyRule;
  /** What the contract says while the rule is kept. */
  keeps: string;
  /** A plausible edit that breaks the rule, in words and as an edit of a copy. */
  breakage: string;
  breakRule(document: OpenApiDocument): void;
}

const keptRules: KeptRule[] = [
  {
    rule: '1.2',
    check: singleEndpointRule,
    keeps: 'the contract has exactly one path, the action endpoint',
    breakage: 'a second path',
    breakRule: (document) => {
      document.paths = { ...document.paths, '/status': document.paths?.['/action'] };
    },
  },
  {
    rule: '4.1b',
    check: singleEndpointRule,
    keeps: 'the endpoint is https://{site}/wp-json/service/v1/action',
    breakage: 'the path renamed to /actions',
    breakRule: (document) => {
      document.paths = { '/actions': document.paths?.['/action'] };
    },
  },
  {
    rule: '9.1',
    check: singleEndpointRule,
    keeps: 'the version is the path segment v1',
    breakage: 'a server under /wp-json/service/v2',
    breakRule: (document) => {
      server(document).url = String(server(document).url).replace('/v1', '/v2');
    },
  },
  {
    rule: '1.3',
    check: siteVariableRule,
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
    check: siteVariableRule,
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
    check: { redoclyRule: 'rule/post-only' },
    keeps: 'POST is the endpoint’s only method',
    breakage: 'a GET beside the POST',
    breakRule: (document) => {
      mapping(document.paths?.['/action'], 'path').get = structuredClone(operation(document));
    },
  },
  {
    rule: '4.1a',
    check: { redoclyRule: 'rule/json-request-only' },
    keeps: 'application/json is the request’s only media type',
    breakage: 'a form-encoded request body beside JSON',
    breakRule: (document) => {
      const content = requestContent(document);
      content['application/x-www-form-urlencoded'] = structuredClone(content['application/json']);
    },
  },
  {
    rule: '4.1-r1',
    check: { redoclyRule: 'rule/post-only' },
    keeps: 'every action goes through the one POST operation',
    breakage: 'a PUT operation for some actions',
    breakRule: (document) => {
      mapping(document.paths?.['/action'], 'path').put = structuredClone(operation(document));
    },
  },
  {
    rule: '4.1c',
    check: eightActionsRule,
    keeps: 'the request body selects exactly the eight specified actions',
    breakage: 'cancel_subscription renamed to cancel',
    breakRule: (document) => {
      mapping(mapping(firstActionBranch(document).properties, 'properties').action, 'action').const = 'cancel';
    },
  },
  {
    rule: '2.1',
    check: apiKeyInBodyRule,
    keeps: 'every action’s body requires the api_key field',
    breakage: 'api_key optional for one action',
    breakRule: (document) => {
      const branch = firstActionBranch(document);
      branch.required = (branch.required as string[]).filter((field) => field !== 'api_key');
    },
  },
  {
    rule: '5.1',
    check: apiKeyInBodyRule,
    keeps: 'api_key is a string field of the JSON body',
    breakage: 'api_key as an integer',
    breakRule: (document) => {
      const properties = mapping(firstActionBranch(document).properties, 'properties');
      properties.api_key = { type: 'integer', writeOnly: true };
    },
  },
  {
    rule: '5.7',
    check: { redoclyRule: 'rule/no-security-schemes' },
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
    check: { redoclyRule: 'rule/rate-limit-has-headers' },
    keeps: 'the 429 declares Retry-After',
    breakage: 'a 429 without Retry-After',
    breakRule: (document) => {
      const responses = mapping(operation(document).responses, 'responses');
      responses['429'] = { description: 'Throttled.' };
    },
  },
  {
    rule: '8.2',
    check: { redoclyRule: 'rule/rate-limit-documented' },
    keeps: 'the endpoint documents the host’s 429',
    breakage: 'the 429 removed',
    breakRule: (document) => {
      delete mapping(operation(document).responses, 'responses')['429'];
    },
  },
];

function guardName(check: KeptRule['check']): string {
  return 'redoclyRule' in check ? `redocly.yaml ${check.redoclyRule}` : `gate’s ${check.name}`;
}

/** The real contract is linted once for every rule of `redocly.yaml` the map names. */
const lintedDocuments = new WeakMap<OpenApiDocument, ReturnType<typeof lintBundledDocument>>();

function redoclyFindings(document: OpenApiDocument, projectDirectory: string): ReturnType<typeof lintBundledDocument> {
  let findings = lintedDocuments.get(document);
  if (findings === undefined) {
    findings = lintBundledDocument(document, projectDirectory);
    lintedDocuments.set(document, findings);
  }
  return findings;
}

function findingsOf(check: KeptRule['check'], document: OpenApiDocument, projectDirectory: string): string[] {
  if ('redoclyRule' in check) {
    return redoclyFindings(document, projectDirectory)
      .filter((finding) => finding.ruleId === check.redoclyRule)
      .map((finding) => `${finding.pointer}: ${finding.message}`);
  }
  return runContractRules(document, [check]).map((finding) => `${finding.pointer}: ${finding.message}`);
}

export const contractRuleChecks: RuleCheck[] = keptRules.map((entry) => ({
  rule: entry.rule,
  name: `${entry.keeps} (the ${guardName(entry.check)} rule)`,
  run({ document, projectDirectory }) {
    const problems = findingsOf(entry.check, document, projectDirectory).map((finding) => `the contract breaks the rule: ${finding}`);
    const broken = structuredClone(document);
    entry.breakRule(broken);
    if (findingsOf(entry.check, broken, projectDirectory).length === 0) {
      problems.push(`the ${guardName(entry.check)} rule no longer notices ${entry.breakage}`);
    }
    return problems;
  },
}));
