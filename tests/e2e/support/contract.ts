import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleContract, contractRoot } from '../../../src/lib/contract/bundle.ts';
import {
  asOpenApiDocument,
  dereference,
  isRecord,
  type OpenApiDocument,
} from '../../../src/lib/contract/document.ts';

export const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * What the tests expect, bundled afresh from `openapi/` by the real Redocly CLI into a
 * directory of their own. The site is compared against this, so a page or download that
 * drifted from the contract fails, and no list of actions or fields is typed into a test.
 */
const freshBundle = bundleContract(
  projectRoot,
  contractRoot,
  mkdtempSync(path.join(os.tmpdir(), 'e2e-contract-')),
);

export const expectedDocument: OpenApiDocument = asOpenApiDocument(
  freshBundle.document,
  freshBundle.jsonPath,
);

export interface ExpectedAction {
  identifier: string;
  /** The URL path the action is sent to: the server's path, then the operation's route. */
  endpointPath: string;
  /** Names of the body fields the action's schema declares. */
  fields: string[];
  /** The request example the document keeps under the action's identifier. */
  requestExample: unknown;
  /** The 200 response example the document keeps under the action's identifier. */
  successExample: unknown;
}

type JsonRecord = Record<string, unknown>;

function record(value: unknown, where: string): JsonRecord {
  const resolved = dereference<unknown>(expectedDocument, value);
  if (!isRecord(resolved)) throw new Error(`${where} is not an object in the bundled document`);
  return resolved;
}

/** Property names of a schema, including those its `allOf` members bring. */
function propertyNames(schema: JsonRecord, where: string): string[] {
  const own = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
  const inherited = Array.isArray(schema.allOf)
    ? schema.allOf.flatMap((member, index) =>
        propertyNames(record(member, `${where}/allOf/${index}`), `${where}/allOf/${index}`),
      )
    : [];
  return [...new Set([...inherited, ...own])];
}

function exampleValue(examples: unknown, identifier: string, where: string): unknown {
  if (!isRecord(examples) || examples[identifier] === undefined) {
    throw new Error(`${where} has no example named ${identifier}`);
  }
  return record(examples[identifier], `${where}/${identifier}`).value;
}

/** The path part of the document's first server URL, its variables filled with their defaults. */
function serverPath(): string {
  const server = expectedDocument.servers?.[0];
  if (server === undefined) throw new Error('The bundled document names no server');
  const url = server.url.replace(/\{(\w+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? name);
  return new URL(url).pathname.replace(/\/$/, '');
}

/**
 * Every action the document defines: the `discriminator.mapping` of each JSON request body,
 * with the schema it maps to and the examples named after it.
 */
function expectedActions(): ExpectedAction[] {
  const actions: ExpectedAction[] = [];
  for (const [route, pathItem] of Object.entries(expectedDocument.paths ?? {})) {
    for (const [method, operation] of Object.entries(pathItem ?? {})) {
      if (!isRecord(operation) || operation.requestBody === undefined) continue;
      const where = `paths/${route}/${method}`;
      const body = record(operation.requestBody, `${where}/requestBody`);
      const json = isRecord(body.content) ? body.content['application/json'] : undefined;
      if (!isRecord(json) || !isRecord(json.schema)) continue;
      const schema = record(json.schema, `${where}/requestBody schema`);
      const mapping = isRecord(schema.discriminator) ? schema.discriminator.mapping : undefined;
      if (!isRecord(mapping)) continue;
      const responses = record(operation.responses, `${where}/responses`);
      const success = record(responses['200'], `${where}/responses/200`);
      const successJson = isRecord(success.content) ? success.content['application/json'] : undefined;
      for (const [identifier, target] of Object.entries(mapping)) {
        actions.push({
          identifier,
          endpointPath: `${serverPath()}${route}`,
          fields: propertyNames(record({ $ref: target }, identifier), identifier),
          requestExample: exampleValue(json.examples, identifier, `${where}/requestBody`),
          successExample: exampleValue(
            isRecord(successJson) ? successJson.examples : undefined,
            identifier,
            `${where}/responses/200`,
          ),
        });
      }
    }
  }
  if (actions.length === 0) throw new Error('The bundled document defines no actions');
  return actions;
}

export const actions = expectedActions();

/** The lifecycle's states, as the document's `x-transitions` table names them. */
export function expectedStates(): string[] {
  const transitions = record(
    (expectedDocument as unknown as JsonRecord)['x-transitions'],
    'x-transitions',
  );
  const states = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string') states.add(value);
    if (Array.isArray(value)) value.forEach(add);
  };
  add(transitions.final);
  for (const action of Object.values(record(transitions.actions, 'x-transitions/actions'))) {
    if (!isRecord(action)) continue;
    add(action.from);
    add(action.to);
    if (isRecord(action.moves)) {
      for (const [from, to] of Object.entries(action.moves)) {
        add(from);
        add(to);
      }
    }
  }
  return [...states];
}
