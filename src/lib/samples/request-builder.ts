import type { Action, ReferenceModel } from '../contract/model.ts';
import { placeholdersIn } from './sample-parts.ts';

/** One input of the request builder: what the reader types, and the example text it stands in for. */
export interface BuilderInput {
  /** The input's id and label. */
  id: string;
  label: string;
  /** The text in every sample and the request example that the reader's value replaces. */
  example: string;
  /** A key is typed into a password field, so it is not shown on screen. */
  secret: boolean;
  /** A server variable of the URL: it also takes a whole base URL, scheme included (`http://127.0.0.1:8787`). */
  site: boolean;
}

/**
 * The inputs of an action page's request builder: the site, the key, the subscription, and the
 * action's own fields whose example is a single value, each from the contract.
 */
export function builderInputs(model: ReferenceModel, action: Action): BuilderInput[] {
  const { endpoint, envelope } = model;
  const example = action.requestExample.value;
  const site = endpoint.variables.map((variable) => ({ id: `builder-${variable.name}`, label: variable.name, example: variable.defaultValue, secret: false, site: true }));
  const [keyPlaceholder] = placeholdersIn(example[envelope.credential]);
  const key = keyPlaceholder === undefined ? [] : [{ id: `builder-${envelope.credential}`, label: envelope.credential, example: keyPlaceholder, secret: true, site: false }];
  const ownFields = action.fields
    .map((field) => field.name)
    .filter((name) => name !== envelope.selector && name !== envelope.credential)
    .flatMap((name) => {
      const value = example[name];
      if (typeof value !== 'string' && typeof value !== 'number') return [];
      return [{ id: `builder-${name}`, label: name, example: String(value), secret: false, site: false }];
    });
  return [...site, ...key, ...ownFields];
}
