import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { wordpressRestPrefix } from '../lib/contract/endpoint.ts';
import { allowedActions } from '../lib/contract/lifecycle.ts';
import { successResponse } from '../lib/contract/response-lookups.ts';
import type { ServiceError } from '../lib/contract/response-shapes.ts';
import { endpointNamespace, endpointRoute } from '../sandbox/route.ts';
import { routeArguments } from '../lib/contract/route-arguments.ts';
import { defaultRetryAfterSeconds, maxThrottledRequests } from '../sandbox/host.ts';
import { defaultApiKey, sandboxSeed } from '../sandbox/seed.ts';
import type { Subscription } from '../sandbox/store.ts';
import { conformanceSeed, conformanceSubscriptionsFrom } from '../conformance/own-sandbox.ts';

/** Where the plugin looks for its contract, relative to the project. */
export const pluginDirectory = 'wordpress-plugin/service-reference';
export const generatedContractFile = path.join(pluginDirectory, 'generated', 'contract.php');
export const generatedTestDoubleFile = path.join(pluginDirectory, 'generated', 'test-double.php');

/**
 * What the installed plugin holds on activation and after a reset: a fresh sandbox's
 * subscriptions (`sandboxSeed`), so the pages' sandbox commands answer as they show, and from
 * `conformanceSubscriptionsFrom(contract)` on, as many in each status as one conformance run needs.
 */
export function installedPluginSeed(contract: ExecutableContract): Subscription[] {
  const seed = sandboxSeed(contract);
  const taken = new Set(seed.map((subscription) => subscription.id));
  const from = conformanceSubscriptionsFrom(contract);
  const conformance = conformanceSeed(contract).map((subscription, index) => ({ id: from + index, status: subscription.status }));
  const clash = conformance.find((subscription) => taken.has(subscription.id));
  if (clash !== undefined) throw new Error(`The sandbox's seed already holds subscription ${clash.id}, which the conformance page's command names (conformanceSubscriptionsFrom in src/conformance/own-sandbox.ts).`);
  return [...seed, ...conformance];
}

/** What the installed plugin needs as a test double: its first key and subscriptions, and how it throttles. */
export function testDoubleSettings(contract: ExecutableContract): Record<string, unknown> {
  return {
    default_api_key: defaultApiKey,
    seed: installedPluginSeed(contract),
    throttle: {
      status: Number(contract.throttled.status),
      header: contract.retryAfterHeader,
      default_retry_after: defaultRetryAfterSeconds,
      max_requests: maxThrottledRequests,
    },
  };
}

/**
 * The route's `args` for `register_rest_route`: the sandbox's own derivation (`routeArguments`),
 * with WordPress's validation and sanitising set explicitly, so the plugin and the sandbox check
 * the same arguments.
 */
function argumentsOf(contract: ExecutableContract): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    routeArguments(contract).map((argument) => [
      argument.name,
      {
        ...argument.schema,
        ...(argument.description === '' ? {} : { description: argument.description }),
        required: argument.required,
        validate_callback: 'rest_validate_request_arg',
        sanitize_callback: 'rest_sanitize_request_arg',
      },
    ]),
  );
}

function errorOf(error: ServiceError): Record<string, unknown> {
  return { code: error.code, status: error.status, message: error.message };
}

/** What the PHP plugin reads: everything it needs to know about the endpoint, from the document. */
export function wordpressContract(contract: ExecutableContract): Record<string, unknown> {
  const { model, errors, result } = contract;
  const { endpoint, envelope, lifecycle } = model;
  const namespacePath = endpoint.versionNamespace;
  if (!namespacePath.startsWith(`${wordpressRestPrefix}/`) || !endpoint.urlPath.startsWith(namespacePath)) {
    throw new Error(`The endpoint ${endpoint.urlPath} is not under WordPress's REST prefix ${wordpressRestPrefix}/, so no REST route can serve it`);
  }
  return {
    document_version: model.documentVersion,
    namespace: endpointNamespace(contract),
    route: endpointRoute(contract).slice(`/${endpointNamespace(contract)}`.length),
    method: endpoint.method,
    fields: {
      credential: envelope.credential,
      selector: envelope.selector,
      subject: envelope.subject,
      note: envelope.note ?? null,
    },
    args: argumentsOf(contract),
    actions: Object.fromEntries(
      model.actions.map((action) => {
        const transition = action.transition;
        return [
          action.identifier,
          {
            required: action.fields.filter((field) => field.required).map((field) => field.name),
            allowed: action.fields.map((field) => field.name),
            transition:
              transition.kind === 'fixed'
                ? { kind: 'fixed', from: transition.from, to: transition.to }
                : { kind: 'chosen', field: transition.field, moves: Object.fromEntries(transition.moves.map((move) => [move.from, move.to])) },
          },
        ];
      }),
    ),
    states: lifecycle.states,
    allowed_actions: Object.fromEntries(lifecycle.states.map((state) => [state, allowedActions(lifecycle, state)])),
    success_status: Number(successResponse(model.responses).status),
    result: {
      success_flag: result.successFlag,
      action: result.action,
      subject: result.subject,
      previous_status: result.previousStatus,
      status: result.status,
      changed: result.changed,
    },
    errors: {
      missing_parameter: errorOf(errors.missingParameter),
      invalid_parameter: errorOf(errors.invalidParameter),
      invalid_key: errorOf(errors.invalidKey),
      subscription_not_found: errorOf(errors.subscriptionNotFound),
      transition_not_allowed: errorOf(errors.transitionNotAllowed),
      internal_error: errorOf(errors.internalError),
    },
    data: {
      status: errors.statusMember,
      params: errors.paramsMember,
      current_status: errors.currentStatusMember,
      allowed_actions: errors.allowedActionsMember,
    },
  };
}

function phpString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A PHP literal of a JSON-like value, indented with tabs as WordPress code is. */
export function phpLiteral(value: unknown, depth = 0): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return phpString(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${value} has no PHP literal`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const inner = '\t'.repeat(depth + 1);
  const outer = '\t'.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'array()';
    return `array(\n${value.map((item) => `${inner}${phpLiteral(item, depth + 1)},`).join('\n')}\n${outer})`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return 'array()';
    return `array(\n${entries.map(([key, item]) => `${inner}${phpString(key)} => ${phpLiteral(item, depth + 1)},`).join('\n')}\n${outer})`;
  }
  throw new Error(`a ${typeof value} has no PHP literal`);
}

export function contractPhp(contract: ExecutableContract): string {
  return `<?php
/**
 * Generated by src/wordpress/generate.ts (\`npm run wordpress -- generate\`, and the site's build for
 * the plugin zip) from the OpenAPI document (version ${contract.model.documentVersion}). Do not edit:
 * change the document and generate again.
 */

defined( 'ABSPATH' ) || exit;

return ${phpLiteral(wordpressContract(contract))};
`;
}

export function testDoublePhp(contract: ExecutableContract): string {
  return `<?php
/**
 * Generated by src/wordpress/generate.ts from the OpenAPI document (version ${contract.model.documentVersion}) and
 * the sandbox's defaults (src/sandbox/seed.ts, src/sandbox/host.ts). Do not edit.
 */

defined( 'ABSPATH' ) || exit;

return ${phpLiteral(testDoubleSettings(contract))};
`;
}

function writeAtomically(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  // Written beside and renamed, so a request never reads half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, content);
  renameSync(partial, file);
}

/** Writes the plugin's generated files (its contract, its test-double defaults) from the gated document; returns the contract's path. */
export function writePluginContract(contract: ExecutableContract, projectDirectory: string): string {
  const file = path.join(projectDirectory, generatedContractFile);
  writeAtomically(file, contractPhp(contract));
  writeAtomically(path.join(projectDirectory, generatedTestDoubleFile), testDoublePhp(contract));
  return file;
}
