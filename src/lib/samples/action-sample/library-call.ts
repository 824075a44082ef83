import type { BodyEnvelope, Field } from '../../contract/model.ts';
import { clientMethodFields, clientMethodName } from '../client-libraries.ts';
import { placeholdersIn, variableName } from '../sample-parts.ts';
import type { Endpoint } from '../../contract/model.ts';
import { fillUrl, wordpressRestPrefix, wordpressRouteParameter } from '../../contract/endpoint.ts';

/** What a library's sample needs beyond the request body: which fields are the envelope's, and the action's own in order. */
export interface LibraryCall {
  envelope: Pick<BodyEnvelope, 'selector' | 'credential'>;
  fields: readonly Pick<Field, 'name' | 'required'>[];
}

/** The method, the key and the action's own fields of a request example, as a library's call takes them. */
export function libraryCall(body: Record<string, unknown>, call: LibraryCall): { method: string; key: unknown; fields: { name: string; value: unknown; present: boolean }[] } {
  const selected = body[call.envelope.selector];
  if (typeof selected !== 'string') throw new Error(`The request example names no action in ${call.envelope.selector}`);
  const fields = clientMethodFields(call.envelope, call.fields).map((field) => ({ name: field.name, value: body[field.name], present: field.name in body }));
  return { method: clientMethodName(selected), key: body[call.envelope.credential], fields };
}

/** What the reader fills in: the site's variables and the placeholders of the example (the key among them). */
export function libraryThingsToFillIn(endpoint: Endpoint, body: unknown): string[] {
  return [...endpoint.variables.map((variable) => variableName(variable.name)), ...placeholdersIn(body)];
}

/**
 * The site's base URL, scheme included, with each server variable spliced in: what both clients
 * are made from, the endpoint's URL up to WordPress's REST prefix.
 */
export function interpolatedBaseUrl(endpoint: Endpoint, splice: (name: string) => string): string {
  const prefixAt = endpoint.urlTemplate.indexOf(`${wordpressRestPrefix}/`);
  if (prefixAt < 0) throw new Error(`The endpoint ${endpoint.urlTemplate} is no WordPress REST route, which the client libraries call`);
  return fillUrl(endpoint.urlTemplate.slice(0, prefixAt), (name) => splice(variableName(name)));
}

/** The base URL of a site without pretty permalinks, which the TypeScript client takes in place of the plain one. */
export function plainPermalinkBase(base: string): string {
  return `${base}/?${wordpressRouteParameter}=/`;
}
