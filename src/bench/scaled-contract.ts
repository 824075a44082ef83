/**
 * A contract grown by actions only, the way rule 9.4 lets version 1 grow: each new action is a
 * copy of an existing one under a new identifier, with its own request schema, request and
 * result examples, discriminator entry, `ActionName` example and `x-transitions` entry. The gate
 * reads such a contract as additive. Used by `npm run bench:scale` and by the tests that prove
 * the gate, the diagram and the build keep working as the list of actions grows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { pascalCaseName } from '../lib/samples/client-libraries.ts';

const requestBodyFile = 'openapi/components/requestBodies/ActionRequest.yaml';
const successResponseFile = 'openapi/components/responses/ActionSucceeded.yaml';
const actionNameFile = 'openapi/components/schemas/ActionName.yaml';
const transitionsFile = 'openapi/components/transitions.yaml';
const conflictResponseFile = 'openapi/components/responses/TransitionNotAllowed.yaml';

type YamlMap = Record<string, unknown>;

/** One action to add: a copy of `template` named `identifier`, optionally along other moves. */
export interface AddedAction {
  identifier: string;
  template: string;
  /** Where the copy leads; the template's own entry of the lifecycle table when absent. */
  transition?: { from: string[]; to: string };
}

function isMap(value: unknown): value is YamlMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapAt(value: unknown, what: string): YamlMap {
  if (!isMap(value)) throw new Error(`${what} is not a mapping`);
  return value;
}

function listAt(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not a list`);
  return value;
}

/** The YAML files of a project's contract, read once, edited as data and written back once. */
class ContractFiles {
  readonly #directory: string;
  readonly #edited = new Map<string, YamlMap>();

  constructor(directory: string) {
    this.#directory = directory;
  }

  read(file: string): YamlMap {
    const known = this.#edited.get(file);
    if (known !== undefined) return known;
    const data = mapAt(parse(readFileSync(path.join(this.#directory, file), 'utf8')), file);
    this.#edited.set(file, data);
    return data;
  }

  create(file: string, data: YamlMap): void {
    this.#edited.set(file, data);
  }

  write(): void {
    for (const [file, data] of this.#edited) writeFileSync(path.join(this.#directory, file), stringify(data, { lineWidth: 0 }));
  }
}

/** A `$ref` of one file to another, both relative to the project, as the contract writes it. */
function resolveRef(fromFile: string, ref: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), ref));
}

function relativeRef(fromFile: string, toFile: string): string {
  return path.posix.relative(path.posix.dirname(fromFile), toFile);
}

/** Replaces every string equal to `from` (the template's identifier) inside a copied value. */
function renamed(value: unknown, from: string, to: string): unknown {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((item) => renamed(item, from, to));
  if (isMap(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renamed(item, from, to)]));
  return value;
}

/** Adds the actions to the contract in `projectDirectory` (its `openapi/` is edited in place). */
export function addActions(projectDirectory: string, actions: readonly AddedAction[]): void {
  const files = new ContractFiles(projectDirectory);
  const body = files.read(requestBodyFile);
  const media = mapAt(mapAt(body.content, 'content')['application/json'], 'the request media type');
  const schema = mapAt(media.schema, 'the request schema');
  const branches = listAt(schema.oneOf, 'oneOf');
  const mapping = mapAt(mapAt(schema.discriminator, 'discriminator').mapping, 'mapping');
  const requestExamples = mapAt(media.examples, 'the request examples');
  const resultExamples = mapAt(
    mapAt(mapAt(files.read(successResponseFile).content, 'content')['application/json'], 'the success media type').examples,
    'the result examples',
  );
  const actionNames = listAt(files.read(actionNameFile).examples, 'ActionName examples');
  const table = mapAt(files.read(transitionsFile).actions, 'x-transitions actions');

  for (const { identifier, template, transition } of actions) {
    if (identifier in mapping) throw new Error(`the contract already has an action \`${identifier}\``);
    const templateSchemaRef = mapping[template];
    const templateRequest = mapAt(requestExamples[template], `the request example of ${template}`).$ref;
    const templateResult = mapAt(resultExamples[template], `the result example of ${template}`).$ref;
    if (typeof templateSchemaRef !== 'string' || typeof templateRequest !== 'string' || typeof templateResult !== 'string') {
      throw new Error(`\`${template}\` is not an action of the contract with a schema and two examples`);
    }
    const name = pascalCaseName(identifier);
    const copies: [string, string][] = [
      [resolveRef(requestBodyFile, templateSchemaRef), `openapi/components/schemas/${name}Request.yaml`],
      [resolveRef(requestBodyFile, templateRequest), `openapi/components/examples/${name}Request.yaml`],
      [resolveRef(successResponseFile, templateResult), `openapi/components/examples/${name}Result.yaml`],
    ];
    for (const [source, target] of copies) files.create(target, mapAt(renamed(files.read(source), template, identifier), source));
    const [schemaCopy, requestCopy, resultCopy] = copies.map(([, target]) => target) as [string, string, string];

    branches.push({ $ref: relativeRef(requestBodyFile, schemaCopy) });
    mapping[identifier] = relativeRef(requestBodyFile, schemaCopy);
    requestExamples[identifier] = { $ref: relativeRef(requestBodyFile, requestCopy) };
    resultExamples[identifier] = { $ref: relativeRef(successResponseFile, resultCopy) };
    actionNames.push(identifier);
    table[identifier] = transition === undefined ? structuredClone(mapAt(table[template], `the lifecycle entry of ${template}`)) : { ...transition };
    if (transition !== undefined) {
      const result = mapAt(files.read(resultCopy).value, `${resultCopy} value`);
      result.previous_status = transition.from[0];
      result.status = transition.to;
    }
  }
  // A refusal lists every action the status accepts (the gate checks the examples against the
  // lifecycle), so each 409 example gains the added actions that accept its status, in their order.
  const conflictExamples = mapAt(mapAt(mapAt(files.read(conflictResponseFile).content, 'content')['application/json'], 'the conflict media type').examples, 'the conflict examples');
  for (const [name, example] of Object.entries(conflictExamples)) {
    const data = mapAt(mapAt(mapAt(example, `the conflict example ${name}`).value, `${name} value`).data, `${name} data`);
    const allowed = listAt(data.allowed_actions, `${name} allowed_actions`);
    for (const { identifier } of actions) {
      const from = mapAt(table[identifier], `the lifecycle entry of ${identifier}`).from;
      if (Array.isArray(from) && from.includes(data.current_status)) allowed.push(identifier);
    }
  }
  files.write();
}

/** The fixed actions of the contract's lifecycle table (those that always lead to one status). */
export function fixedActionsOf(projectDirectory: string): string[] {
  const table = mapAt(mapAt(parse(readFileSync(path.join(projectDirectory, transitionsFile), 'utf8')), transitionsFile).actions, 'actions');
  return Object.entries(table)
    .filter(([, entry]) => isMap(entry) && typeof entry.to === 'string')
    .map(([identifier]) => identifier);
}

/**
 * `count` copies spread evenly over the contract's fixed actions, so that every arrow of the
 * lifecycle carries more actions rather than one arrow carrying them all. Identifiers are the
 * template's with a number: `pause_subscription_2`.
 */
export function spreadCopies(projectDirectory: string, count: number): AddedAction[] {
  const templates = fixedActionsOf(projectDirectory);
  if (templates.length === 0) throw new Error('the contract has no fixed action to copy');
  return Array.from({ length: count }, (_, index) => {
    const template = templates[index % templates.length] as string;
    return { identifier: `${template}_${Math.floor(index / templates.length) + 2}`, template };
  });
}
