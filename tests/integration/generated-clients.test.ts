/**
 * Typed right by the generators integrators run: clients generated from the published document by
 * openapi-typescript, @hey-api/openapi-ts and orval (each pinned in package.json) compile, under
 * TypeScript's strict mode, with a small program that uses them as an integrator would: each
 * action's request type under its own name with the key, a 429 handled without `Retry-After`,
 * `data.status` narrowed to its constant, and a switch over each error's `code` values that only
 * compiles when the type lists them. Every name and value of the program is read from the model;
 * `@ts-expect-error` lines prove the types refuse what the document does not allow.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { errorDataField } from '../../src/lib/contract/response-names.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';

const document = bundledDocument();
const contract = readExecutableContract(document);
const { model } = contract;
const bin = (name: string) => path.join(projectDirectory, 'node_modules', '.bin', name);

type Generator = 'openapi-typescript' | 'hey-api' | 'orval';
const generators: Generator[] = ['openapi-typescript', 'hey-api', 'orval'];

/** The component a `$ref` names: `#/components/schemas/PauseSubscriptionRequest` gives `PauseSubscriptionRequest`. */
function componentName(pointer: string): string {
  const name = pointer.split('/').at(-1);
  assert.ok(name, `a component pointer: ${pointer}`);
  return name;
}

function schemaType(generator: Generator, name: string): string {
  return generator === 'openapi-typescript' ? `components['schemas']['${name}']` : name;
}

const requestBodyReference = (model.endpoint.operation.requestBody as { $ref?: string } | undefined)?.$ref;
assert.ok(requestBodyReference, 'the operation refers to its request body component');
const requestBodyName = componentName(requestBodyReference);
const throttledStatus = Number(contract.throttled.status);
const siteUrl = model.endpoint.exampleUrl.slice(0, -model.endpoint.path.length);
const errorBodies = model.responses.filter((response) => response.isError && response.body !== undefined && response.errorCodes.length > 0);

/** What every generator's program shares: the request types, `data.status` and the codes. */
function sharedUsage(generator: Generator): string {
  const lines: string[] = [];
  for (const action of model.actions) {
    const type = schemaType(generator, componentName(action.pointer));
    const name = action.identifier;
    lines.push(`export const ${name}: ${type} = ${JSON.stringify(action.requestExample.value)};`);
    lines.push(`export const ${name}Key: ${type}['${model.envelope.credential}'] = ${JSON.stringify(action.requestExample.value[model.envelope.credential])};`);
  }
  for (const response of errorBodies) {
    const type = schemaType(generator, componentName(response.body?.pointer ?? ''));
    const status = Number(response.status);
    const statusType = `${type}['${errorDataField}']['${contract.errors.statusMember}']`;
    lines.push(`export const status${status}: ${statusType} = ${status};`);
    lines.push(`// @ts-expect-error \`data.${contract.errors.statusMember}\` of a ${status} is ${status} and nothing else`);
    lines.push(`export const wrongStatus${status}: ${statusType} = ${status + 1};`);
    const codes = response.errorCodes.map((error) => error.code);
    lines.push(`export function branch${status}(code: ${type}['code']): string {`);
    lines.push('  switch (code) {');
    for (const code of codes) lines.push(`    case ${JSON.stringify(code)}: return ${JSON.stringify(code)};`);
    lines.push('    default: { const unexpected: never = code; return unexpected; }');
    lines.push('  }');
    lines.push('}');
    lines.push(`// @ts-expect-error a code the ${status} does not give`);
    lines.push(`export const unknownCode${status}: ${type}['code'] = 'not_a_code_of_${status}';`);
  }
  return lines.join('\n');
}

function imports(generator: Generator): string {
  const names = [...new Set([...model.actions.map((action) => componentName(action.pointer)), ...errorBodies.map((response) => componentName(response.body?.pointer ?? ''))])];
  switch (generator) {
    case 'openapi-typescript':
      return `import type { components, paths } from './openapi-typescript/schema';`;
    case 'hey-api':
      return [`import type { ${[...names, requestBodyName].join(', ')} } from './hey-api/types.gen';`, `import { ${operationFunction} } from './hey-api/sdk.gen';`].join('\n');
    case 'orval':
      return `import { ${operationFunction}, type ${[...names, `${requestBodyName}Body`].join(', type ')} } from './orval/api';`;
  }
}

const operationId = model.endpoint.operation.operationId;
assert.ok(operationId, 'the operation has an operationId, which the generated functions are named after');
const operationFunction = operationId;
const method = model.endpoint.method.toLowerCase();

/** How each generator's client meets a throttling host: the status, and `Retry-After` only when it came. */
function throttleUsage(generator: Generator): string {
  const header = contract.retryAfterHeader;
  switch (generator) {
    case 'openapi-typescript':
      return [
        `type ThrottledHeaders = paths['${model.endpoint.path}']['${method}']['responses'][${throttledStatus}]['headers'];`,
        `// A host may send no ${header}: the type must allow it.`,
        `export const throttledWithout: ThrottledHeaders = {};`,
        `export function waitSeconds(headers: ThrottledHeaders): number {`,
        `  const value = headers['${header}'];`,
        `  return value === undefined ? 1 : typeof value === 'number' ? value : Math.max(0, (Date.parse(value) - Date.now()) / 1000);`,
        `}`,
      ].join('\n');
    case 'hey-api':
      return [
        `export async function send(body: ${requestBodyName}): Promise<string> {`,
        `  const result = await ${operationFunction}({ body, baseUrl: ${JSON.stringify(siteUrl)} });`,
        `  if (result.response?.status === ${throttledStatus}) return result.response.headers.get('${header}') ?? 'no ${header}: back off on your own';`,
        `  return result.data === undefined ? 'refused' : result.data.${contract.result.status};`,
        `}`,
      ].join('\n');
    case 'orval':
      return [
        `export async function send(body: ${requestBodyName}Body): Promise<string> {`,
        `  const result = await ${operationFunction}(body);`,
        `  if (result.status === ${throttledStatus}) return result.headers.get('${header}') ?? 'no ${header}: back off on your own';`,
        `  if (result.status === 200) return result.data.${contract.result.status};`,
        `  const status: ${errorBodies.map((response) => response.status).join(' | ')} = result.data.${errorDataField}.${contract.errors.statusMember};`,
        `  return \`\${status} \${result.data.code}\`;`,
        `}`,
      ].join('\n');
  }
}

/**
 * orval's fetch client parses every answer as JSON and throws a `SyntaxError` on a host's HTML
 * page; the errors guide tells integrators to give it a fetch that reads JSON only when the answer
 * says it is JSON, as this one does.
 */
const orvalFetch = `/** Reads the body as JSON only when the answer is JSON: a host's 429 page is HTML, or empty. */
export const readingFetch = async <T>(url: string, init: RequestInit): Promise<T> => {
  const response = await fetch(url, init);
  const text = await response.text();
  const isJson = /^application\\/([\\w.+-]+\\+)?json\\b/i.test(response.headers.get('content-type') ?? '');
  const data: unknown = isJson && text !== '' ? JSON.parse(text) : undefined;
  return { data, status: response.status, headers: response.headers } as T;
};
`;

let directory: string;

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: directory, encoding: 'utf8' });
  assert.equal(result.status, 0, `${path.basename(command)} ${args.join(' ')}\n${result.stdout}${result.stderr}`);
}

before(() => {
  // A directory of its own: openapi-typescript would otherwise read the project's redocly.yaml.
  directory = mkdtempSync(path.join(tmpdir(), 'generated-clients-'));
  writeFileSync(path.join(directory, 'v1.json'), JSON.stringify(document));
  writeFileSync(path.join(directory, 'orval-fetch.ts'), orvalFetch);
  writeFileSync(
    path.join(directory, 'orval.config.mjs'),
    `export default ${JSON.stringify({
      lifecycle: {
        input: { target: './v1.json' },
        output: { target: './orval/api.ts', client: 'fetch', mode: 'single', baseUrl: siteUrl, override: { mutator: { path: './orval-fetch.ts', name: 'readingFetch' } } },
      },
    })};\n`,
  );
  run(bin('openapi-typescript'), ['v1.json', '--output', 'openapi-typescript/schema.d.ts']);
  run(bin('openapi-ts'), ['--input', 'v1.json', '--output', 'hey-api']);
  run(bin('orval'), ['--config', 'orval.config.mjs']);
  for (const generator of generators) {
    writeFileSync(path.join(directory, `use-${generator}.ts`), [imports(generator), sharedUsage(generator), throttleUsage(generator), ''].join('\n\n'));
  }
  writeFileSync(
    path.join(directory, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [], skipLibCheck: false },
      include: generators.map((generator) => `use-${generator}.ts`),
    }),
  );
});
after(() => rmSync(directory, { recursive: true, force: true }));

describe('clients generated from the published document', () => {
  test('compile under strict TypeScript with a program that uses each the way an integrator would', () => {
    const result = spawnSync(bin('tsc'), ['--project', 'tsconfig.json', '--pretty', 'false'], { cwd: directory, encoding: 'utf8' });
    assert.equal(result.status, 0, `tsc found errors in the usage programs (${directory}):\n${result.stdout}${result.stderr}`);
  });
});
