/**
 * What the client libraries and the action pages' samples of them share: the packages' names,
 * the class a reader constructs, the pages that install them, and how an action's identifier
 * becomes a method. The generators in src/clients/ read these, so a sample calls the method the
 * package has.
 */
import type { BodyEnvelope, Field } from '../contract/model.ts';

/** The PHP package's root namespace, as its composer.json's PSR-4 map and every file say it. */
export const phpClientNamespace = 'SubscriptionLifecycle\\Client';

/** The Composer package's name. */
export const composerPackageName = 'subscription-lifecycle/client';

/** The npm package's name. */
export const typescriptClientPackageName = '@subscription-lifecycle/client';

/** The class a reader constructs, named alike in every library that has one (TypeScript, Python). */
export const clientClassName = 'SubscriptionLifecycleClient';

/** The class a reader of the TypeScript client constructs. */
export const typescriptClientClassName = clientClassName;

/** The Python distribution's name (what pip installs) and the package a reader imports. */
export const pythonDistributionName = 'subscription-lifecycle-client';
export const pythonImportName = 'subscription_lifecycle_client';

/** The pages that install each library, under the docs site. */
export const clientPagePaths = { php: '/clients/php/', typescript: '/clients/typescript/', python: '/clients/python/' } as const;

/** The method an action is called by in the Python library: its identifier's words in snake case, `pause_subscription`. */
export function pythonMethodName(identifier: string): string {
  return nameWords(identifier).map((word) => word.toLowerCase()).join('_');
}

/** The words of a contract name, as every spelling of it in code splits them: `on-hold` → `on`, `hold`. */
export function nameWords(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * How both libraries write a contract name in their code: `current_status` → `currentStatus` (a
 * method, property or parameter), the same words capitalized (`Too Many Requests` →
 * `TooManyRequests`) for a class, a type or a getter's tail.
 */
export function camelCaseName(text: string): string {
  return nameWords(text).map((word, index) => (index === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : capitalized(word))).join('');
}

export function pascalCaseName(text: string): string {
  return nameWords(text).map(capitalized).join('');
}

/** The method an action is called by in both libraries: `pause_subscription` → `pauseSubscription`. */
export function clientMethodName(identifier: string): string {
  return camelCaseName(identifier);
}

/**
 * The fields a method takes, in the order of the PHP method's parameters: every field but the
 * selector and the key (the client fills those in), the required ones first.
 */
export function clientMethodFields<F extends Pick<Field, 'name' | 'required'>>(envelope: Pick<BodyEnvelope, 'selector' | 'credential'>, fields: readonly F[]): F[] {
  const own = fields.filter((field) => field.name !== envelope.selector && field.name !== envelope.credential);
  return [...own.filter((field) => field.required), ...own.filter((field) => !field.required)];
}
