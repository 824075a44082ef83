/**
 * Writes the TypeScript sources of the client package from the executable contract: the types of
 * every action's fields and of the result, one error class per documented error status, the
 * facts the runtime acts on, and the client class with one method per action. Nothing here names
 * an action, a field, a status or a code: each comes from the model.
 */
import { claimMethodNames } from '../shared/method-names.ts';
import type { Action, Field, ResponseRow } from '../../lib/contract/model.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { acceptedStates } from '../../lib/contract/lifecycle.ts';
import { errorDataField } from '../../lib/contract/response-names.ts';
import { successResponse } from '../../lib/contract/response-lookups.ts';
import type { ResolvedSchema } from '../../lib/contract/schemas.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { checkedKeywords } from '../shared/checked-keywords.ts';
import { contractFacts, errorDetailMembers } from '../shared/contract-facts.ts';
import { callerFields, fieldSchema } from '../shared/field-rules.ts';
import { fixedErrorClassName, fixedErrorKinds, statusErrorClassName, type FixedErrorKindId } from '../shared/error-kinds.ts';
import type { ClientDescription } from './runtime/description.ts';
import { docComment, objectMembers, propertyKey, typeOf } from './typescript-types.ts';

// The package's name on npm (`npm pack` names its tarball `subscription-lifecycle-client-<version>.tgz`)
// and the class a reader constructs, shared with the action pages' samples.
import { camelCaseName, clientMethodName, pascalCaseName, typescriptClientClassName, typescriptClientPackageName } from '../../lib/samples/client-libraries.ts';
export { typescriptClientClassName, typescriptClientPackageName };

/** Members of the client class that an action's method must not take the name of. */
const clientMembers = ['action', 'settings', 'toJSON', 'constructor'];

const generatedNotice = (version: string) => `// Generated from version ${version} of the contract by src/clients/typescript/generate.ts. Do not edit.`;

/** The error classes of the kinds every call can end with, as the runtime's errors.ts defines them and the package exports them. */
export const fixedErrorClassNames: readonly string[] = (Object.keys(fixedErrorKinds) as FixedErrorKindId[]).map((kind) => fixedErrorClassName(kind, 'typescript'));

/** The base error's name before release 1.1, still exported (deprecated) so that no caller of that release breaks. */
const formerBaseErrorName = 'SubscriptionLifecycleError';

function fieldComment(field: Field): string {
  const bounds = field.constraints.filter((constraint) => checkedKeywords.has(constraint.keyword) || constraint.keyword === 'default');
  const said = bounds.map((constraint) => `${constraint.label}${constraint.values === undefined ? '' : ` ${constraint.values.map((value) => `\`${JSON.stringify(value)}\``).join(', ')}`}`);
  const rule = `${field.required ? 'Required' : 'Optional'}${said.length > 0 ? `: ${said.join('; ')}` : ''}.`;
  return `${field.description.trim()}${field.description.trim() === '' ? '' : '\n\n'}${rule}${field.deprecated ? '\n\n@deprecated The contract deprecates this field.' : ''}`;
}

function fieldsInterface(contract: ExecutableContract, name: string, action: Action): string {
  const members = callerFields(contract, action.fields).map((field) => {
    const type = typeOf(contract.document, fieldSchema(contract, field), 'request', '  ');
    return `${docComment(fieldComment(field), '  ')}\n  ${propertyKey(field.name)}${field.required ? '' : '?'}: ${type};`;
  });
  return `${docComment(`The fields of \`${action.identifier}\` (${action.title}); the client adds \`${contract.model.envelope.selector}\` and \`${contract.model.envelope.credential}\`.`)}\nexport interface ${name} {\n${members.join('\n')}\n}`;
}

function codeList(values: readonly string[]): string {
  return values.map((value) => `\`${value}\``).join(', ');
}

/** What the lifecycle table says of an action, in a sentence or two for its method's comment. */
function lifecycleSentence(contract: ExecutableContract, action: Action, conflictClass: string | undefined): string {
  const { transition } = action;
  const changed = contract.result.changed;
  const lines: string[] = [];
  if (transition.kind === 'fixed') {
    lines.push(`Accepted from ${codeList(transition.from)}; the subscription is then \`${transition.to}\`. Sent when it already is, the answer says \`${changed}: false\`.`);
  } else {
    lines.push(`The status asked for is \`${transition.field}\`; accepted from ${codeList(acceptedStates(transition))}, along the lifecycle table's moves.`);
  }
  if (action.refusedStates.length > 0) lines.push(`Refused from ${codeList(action.refusedStates)}${conflictClass === undefined ? '' : ` with a {@link ${conflictClass}} naming the actions that status allows`}.`);
  return lines.join(' ');
}

interface ErrorClassSource {
  status: number;
  className: string;
  text: string;
}

/** The class a service error of a status is thrown as, named by the shared table of error kinds (`409` → `ConflictError`). */
export function errorClassName(status: number): string {
  return statusErrorClassName(status, 'typescript');
}

function errorClassOf(contract: ExecutableContract, response: ResponseRow): ErrorClassSource | undefined {
  if (response.body === undefined || !response.isError) return undefined;
  const status = Number(response.status);
  const className = errorClassName(status);
  if (fixedErrorClassNames.includes(className)) throw new Error(`HTTP ${status} documents an error body, and its class would be ${className}, a kind every call can end with (src/clients/shared/error-kinds.ts): name the status otherwise there.`);
  const members = errorDetailMembers(response);
  const properties = members.map((member) => {
    const type = typeOf(contract.document, fieldSchema(contract, member), 'answer', '  ');
    const comment = `\`${errorDataField}.${member.name}\`${member.description.trim() === '' ? '' : `: ${member.description.trim()}`}\n\nUndefined when the answer does not carry it.`;
    return { name: camelCaseName(member.name), member: member.name, type, comment };
  });
  const codes = response.errorCodes.map((error) => JSON.stringify(error.code));
  const codeComment = `The machine-readable code:\n\n${response.errorCodes.map((error) => `- \`${error.code}\`: ${error.when.trim().replaceAll('\n', ' ')}`).join('\n')}`;
  const text = `${docComment(`${response.description.trim()}\n\nThe service's answer with HTTP ${status}.`)}
export class ${className} extends ServiceError {
  override name = ${JSON.stringify(className)};
${docComment(codeComment, '  ')}
  declare readonly code: ${[...codes, '(string & {})'].join(' | ')};
${properties.map((property) => `${docComment(property.comment, '  ')}\n  readonly ${property.name}: ${property.type} | undefined;`).join('\n')}

  constructor(status: number, body: ErrorBody, members: ErrorMembers) {
    super(status, body, members);
${properties.map((property) => `    this.${property.name} = this.data[${JSON.stringify(property.member)}] as ${property.type} | undefined;`).join('\n')}
  }
}`;
  return { status, className, text };
}

/** The generated sources, by file name in the package's `src/`. */
export type GeneratedSources = Map<string, string>;

/** The description the runtime acts on, written from the model. */
export function clientDescription(contract: ExecutableContract): ClientDescription {
  const { actions, sharedFields, ...facts } = contractFacts(contract);
  const policy = retryPolicy;
  return {
    packageName: typescriptClientPackageName,
    ...facts,
    policy: {
      attemptTimeoutMs: policy.attemptTimeoutSeconds * 1000,
      maxAttempts: policy.maxAttempts,
      backoffBaseMs: policy.backoffBaseSeconds * 1000,
      backoffMaxMs: policy.backoffMaxSeconds * 1000,
      backoffFixedShare: policy.backoffFixedShare,
      retryAfterCapMs: policy.retryAfterCapSeconds * 1000,
      paceMs: policy.courtesyIntervalSeconds * 1000,
    },
    actions,
    sharedFields,
  };
}

/** The method name of an action: its identifier in camel case. */
export function methodName(identifier: string): string {
  return clientMethodName(identifier);
}

/** The sources of the package, from the contract: `contract.ts` (types, errors, facts) and `index.ts` (the client). */
export function generateClientSources(contract: ExecutableContract): GeneratedSources {
  const { model } = contract;
  const version = model.documentVersion;
  const { subject } = model.envelope;
  const identifiers = model.actions.map((action) => action.identifier);
  claimMethodNames(model.actions, { methodName, allowed: (name) => !clientMembers.includes(name) && /^[A-Za-z_$][\w$]*$/.test(name), shown: (name) => `the method ${name}()` });
  const fieldsName = (action: Action) => `${pascalCaseName(action.identifier)}Fields`;
  const errorClasses = model.responses.map((response) => errorClassOf(contract, response)).filter((source): source is ErrorClassSource => source !== undefined);
  const conflictClass = errorClasses.find((source) => model.actions.some((action) => action.errors.some((error) => error.status === String(source.status) && error.refusedStates !== undefined)))?.className;
  const success = successResponse(model.responses);
  const resultSchema = success.body as ResolvedSchema;
  const resultMembers = objectMembers(contract.document, resultSchema, 'answer', '  ', { [contract.result.action]: 'Name' });
  const subjectField = model.envelope.sharedFields.find((field) => field.name === subject);
  const subjectType = subjectField === undefined ? 'unknown' : typeOf(contract.document, fieldSchema(contract, subjectField), 'request');
  const known = identifiers.map((identifier) => JSON.stringify(identifier)).join(' | ');
  const states = model.lifecycle.states.map((state) => JSON.stringify(state)).join(' | ');

  const contractSource = `${generatedNotice(version)}
import type { ClientDescription } from './description.ts';
import { ServiceError, type ErrorBody, type ErrorMembers } from './errors.ts';

/** The version of the contract this package was generated from, and the package's own version. */
export const contractVersion = ${JSON.stringify(version)};

/** The actions this release of the contract knows. */
export type KnownActionName = ${known};

/** Every action this release knows, in the contract's order. */
export const knownActions: readonly KnownActionName[] = ${JSON.stringify(identifiers)};

/** An action's name: one this release knows, or one a later release adds, which the client sends all the same. */
export type ActionName = KnownActionName | (string & {});

/** A subscription's status: one this release knows, or one a later release adds. */
export type SubscriptionStatus = ${states} | (string & {});

${model.actions.map((action) => fieldsInterface(contract, fieldsName(action), action)).join('\n\n')}

/** The fields of each action this release knows, by its name. */
export interface ActionFields {
${model.actions.map((action) => `  ${propertyKey(action.identifier)}: ${fieldsName(action)};`).join('\n')}
}

/** The fields of an action a later release adds: its subscription, and whatever else it takes. */
export interface UnknownActionFields {
  ${propertyKey(subject)}: ${subjectType};
  readonly [field: string]: unknown;
}

/** The fields an action takes, narrowed by its name. */
export type FieldsOf<Name extends string> = Name extends KnownActionName ? ActionFields[Name] : UnknownActionFields;

${docComment(`${success.description.trim()}\n\nEvery member the answer carries is kept, those the contract does not name yet too.`)}
export interface ActionResult<Name extends string = ActionName> {
${resultMembers.join('\n')}
}

${errorClasses.map((source) => source.text).join('\n\n')}

/** The class each documented error status is thrown as. */
export const errorClasses: ReadonlyMap<number, new (status: number, body: ErrorBody, members: ErrorMembers) => ServiceError> = new Map<number, new (status: number, body: ErrorBody, members: ErrorMembers) => ServiceError>([
${errorClasses.map((source) => `  [${source.status}, ${source.className}],`).join('\n')}
]);

/** The contract's facts the runtime acts on. */
export const description: ClientDescription = ${JSON.stringify(clientDescription(contract), null, 2)};
`;

  const methodSources = model.actions.map((action) => {
    const name = methodName(action.identifier);
    const comment = [
      action.title,
      '',
      action.description.trim(),
      '',
      lifecycleSentence(contract, action, conflictClass),
      '',
      '@param fields - The action\'s fields, checked before anything is sent (an {@link InvalidFieldError} names the field and its bound).',
      '@param options - A signal that aborts this call, or another timeout.',
      '@returns The answer, every member kept.',
      ...errorClasses.filter((source) => action.errors.some((error) => error.status === String(source.status))).map((source) => `@throws {@link ${source.className}} HTTP ${source.status}.`),
      ...(action.deprecated ? ['@deprecated The contract deprecates this action.'] : []),
    ].join('\n');
    return `${docComment(comment, '  ')}\n  ${name}(fields: ${fieldsName(action)}, options?: CallOptions): Promise<ActionResult<${JSON.stringify(action.identifier)}>> {\n    return this.action(${JSON.stringify(action.identifier)}, fields, options);\n  }`;
  });

  const indexSource = `${generatedNotice(version)}
import { ClientCore, type CallOptions, type ClientOptions, type ClientSettings } from './client-core.ts';
import { description, errorClasses, type ActionName, type ActionResult, type FieldsOf, ${model.actions.map(fieldsName).map((name) => `type ${name}`).join(', ')} } from './contract.ts';

export { contractVersion, knownActions, ${errorClasses.map((source) => source.className).join(', ')} } from './contract.ts';
export type { ActionFields, ActionName, ActionResult, FieldsOf, KnownActionName, SubscriptionStatus, UnknownActionFields, ${model.actions.map(fieldsName).join(', ')} } from './contract.ts';
export { ${[...fixedErrorClassNames, formerBaseErrorName].join(', ')} } from './errors.ts';
export type { ErrorBody } from './errors.ts';
export type { AttemptReport, CallOptions, ClientOptions, ClientSettings } from './client-core.ts';

/**
 * A client of one site's Subscription Lifecycle Action Service: one method per action.
 *
 * Made from the site's base URL with its scheme (\`https://shop.example\`, a subdirectory install
 * \`https://example.com/shop\`, or \`https://shop.example/?rest_route=/\` for a site without pretty
 * permalinks), the site's API key, and options. A throttled request (HTTP ${contract.throttled.status}) is sent
 * again after its \`${contract.retryAfterHeader}\` up to the bound; requests to one site keep a courtesy pace of
 * about one a second. The key is never printed: not by \`console.log\`, \`JSON.stringify\` or an error.
 */
export class ${typescriptClientClassName} {
  readonly #core: ClientCore;

  constructor(baseUrl: string, apiKey: string, options: ClientOptions = {}) {
    this.#core = new ClientCore(description, errorClasses, baseUrl, apiKey, options);
  }

  /** The settings this client applies, defaults filled in: the endpoint's URL, the timeout, the pace, the bounds. */
  get settings(): ClientSettings {
    return this.#core.settings;
  }

  /**
   * Sends any action by its name, with the fields that name takes: an action this release does
   * not know is sent as it is given, its subscription checked.
   */
  action<Name extends ActionName>(name: Name, fields: FieldsOf<Name>, options?: CallOptions): Promise<ActionResult<Name>> {
    return this.#core.send(name, fields as Readonly<Record<string, unknown>>, options) as Promise<ActionResult<Name>>;
  }

${methodSources.join('\n\n')}

  /** The settings, without the key. */
  toJSON(): ClientSettings {
    return this.#core.toJSON();
  }
}

// Node's util.inspect and console.log show this instead of the object: the key stays out of logs.
Object.defineProperty(${typescriptClientClassName}.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: ${typescriptClientClassName}) {
    return \`${typescriptClientClassName} { endpoint: \${JSON.stringify(this.settings.endpoint)} }\`;
  },
});
`;
  return new Map([
    ['contract.ts', contractSource],
    ['index.ts', indexSource],
  ]);
}
