/**
 * The gate's step for the lifecycle's Arazzo workflows (`/openapi/v1.arazzo.yaml`): it writes the
 * description the site publishes beside the bundle it was generated from, lints it with Redocly
 * (the Arazzo Specification's structure and runtime expressions), and holds every name it uses to
 * the contract: the operation, the fields of each request, the responses' members and the
 * statuses and actions compared with them. Redocly cannot do the last part: it does not resolve an
 * `operationId` or a field against the source description.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Scalar, type YAMLMap } from 'yaml';
import { redoclyInvocation } from '../lib/contract/bundle.ts';
import type { Field } from '../lib/contract/model.ts';
import { noSchemaValidator, readExecutableContractWith, type ExecutableContract } from '../lib/contract/serving-contract.ts';
import { arazzoYaml } from '../lib/workflows/arazzo-document.ts';
import type { GateContext, GateProblem, GateStep } from './gate.ts';
import { lintProblems } from './redocly-lint.ts';

/** The rule the step's own findings name. */
export const workflowsRule = 'Arazzo workflows';
/** The file the gate writes beside the bundle, as the site publishes it beside `v1.yaml`. */
export const arazzoFileName = 'v1.arazzo.yaml';

/** Runs `redocly lint` on an Arazzo file with the project's configuration; its errors as the gate's problems. */
function lintWithRedocly(file: string, projectDirectory: string): Promise<GateProblem[]> {
  const { file: node, args, options } = redoclyInvocation(['lint', file, '--format=json', '--max-problems=1000'], projectDirectory);
  return new Promise((resolve) => {
    execFile(node, args, { ...options, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      const relative = path.relative(projectDirectory, file);
      resolve(lintProblems({ exitCode, stdout, stderr: error !== null && stderr === '' ? error.message : stderr }, projectDirectory, relative));
    });
  });
}

/** The fields of a body, walked by a JSON pointer's segments; undefined when a segment names no member. */
function fieldAt(fields: readonly Field[], segments: readonly string[]): { field?: Field; missing?: string } {
  let level = fields;
  let found: Field | undefined;
  for (const segment of segments) {
    if (/^\d+$/.test(segment) && found?.type.startsWith('array')) continue;
    found = level.find((field) => field.name === segment);
    if (found === undefined) return { missing: segment };
    level = found.members;
  }
  return found === undefined ? {} : { field: found };
}

/** The values a field is limited to, when the contract lists them (an enum, a constant, an extensible enum). */
function listedValues(field: Field): readonly unknown[] | undefined {
  return field.constraints.find((constraint) => ['enum', 'const', 'oneOf', 'extensibleEnum'].includes(constraint.keyword))?.values;
}

interface Place {
  node: Node | null | undefined;
}

/**
 * Checks the names an Arazzo description uses against the contract, each problem at the line of
 * the node that names it. The file's text is read as YAML with its line numbers.
 */
export function checkWorkflowNames(text: string, file: string, contract: ExecutableContract): GateProblem[] {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  const problems: GateProblem[] = [];
  const report = (place: Place, message: string): void => {
    const offset = place.node?.range?.[0];
    problems.push({ file, message, rule: workflowsRule, ...(offset === undefined ? {} : { line: lineCounter.linePos(offset).line }) });
  };
  const { model, errors } = contract;
  const { envelope, endpoint } = model;
  const operationId = endpoint.operation.operationId;
  const actionNames = model.actions.map((action) => action.identifier);
  const responseStatuses = model.responses.map((response) => response.status);
  const refusalListed = (pointer: readonly string[]): boolean => pointer.at(-1) === errors.allowedActionsMember;

  const workflows = document.get('workflows', true);
  if (!isSeq(workflows)) {
    report({ node: document.contents }, 'The description has no list of workflows.');
    return problems;
  }
  for (const workflow of workflows.items) {
    if (!isMap(workflow)) continue;
    const workflowId = String(workflow.get('workflowId') ?? '');
    const inputs = workflow.getIn(['inputs', 'properties'], true);
    const inputNames = isMap(inputs) ? inputs.items.map((pair) => String(isScalar(pair.key) ? pair.key.value : pair.key)) : [];
    const steps = workflow.get('steps', true);
    if (!isSeq(steps)) continue;
    const outputsOf = new Map<string, string[]>();
    for (const step of steps.items) {
      if (!isMap(step)) continue;
      const stepId = String(step.get('stepId') ?? '');
      const where = `Workflow ${workflowId}, step ${stepId}`;
      const operation = step.get('operationId', true);
      if (step.has('operationPath')) report({ node: step.get('operationPath', true) as Node }, `${where} names its operation by a path; name it by the contract's operationId \`${operationId ?? ''}\`.`);
      else if (!isScalar(operation) || operation.value !== operationId) {
        report({ node: operation as Node }, `${where} names the operation \`${isScalar(operation) ? String(operation.value) : ''}\`, which the contract does not have: its one operation is \`${operationId ?? ''}\`.`);
      }

      for (const scalar of scalarsIn(step)) {
        if (typeof scalar.value !== 'string') continue;
        for (const match of scalar.value.matchAll(/\$inputs\.([A-Za-z0-9_-]+)/g)) {
          if (!inputNames.includes(match[1] ?? '')) report({ node: scalar }, `${where} reads the input \`${match[1] ?? ''}\`, which workflow ${workflowId} does not declare.`);
        }
        for (const match of scalar.value.matchAll(/\$steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)/g)) {
          if (!(outputsOf.get(match[1] ?? '') ?? []).includes(match[2] ?? '')) report({ node: scalar }, `${where} reads \`${match[0]}\`, which no earlier step of ${workflowId} outputs.`);
        }
      }

      // The request: the action it selects, and only fields that action has.
      const payload = step.getIn(['requestBody', 'payload'], true);
      if (isMap(payload)) {
        const selected = payload.get(envelope.selector, true);
        const selectedValue = isScalar(selected) && typeof selected.value === 'string' ? selected.value : undefined;
        const action = selectedValue === undefined || selectedValue.startsWith('$') ? undefined : model.actions.find((candidate) => candidate.identifier === selectedValue);
        if (selectedValue !== undefined && !selectedValue.startsWith('$') && action === undefined) {
          report({ node: selected as Node }, `${where} sends the action \`${selectedValue}\`, which the contract does not have (${actionNames.join(', ')}).`);
        }
        const fields = action?.fields ?? envelope.sharedFields;
        for (const pair of payload.items) {
          const name = String(isScalar(pair.key) ? pair.key.value : pair.key);
          const field = fields.find((candidate) => candidate.name === name);
          if (field === undefined) {
            report({ node: pair.key as Node }, `${where} sends the field \`${name}\`, which ${action === undefined ? 'not every action' : action.identifier} has: the contract refuses a request with it.`);
            continue;
          }
          const value = isScalar(pair.value) ? pair.value.value : undefined;
          const allowed = listedValues(field);
          if (name !== envelope.selector && allowed !== undefined && !(typeof value === 'string' && value.startsWith('$')) && !allowed.includes(value)) {
            report({ node: pair.value as Node }, `${where} sends \`${name}: ${String(value)}\`, which is not one of the values the contract lists (${allowed.join(', ')}).`);
          }
        }
      }

      // The answer: a documented status, members of its body, and values the contract lists.
      const criteria = step.get('successCriteria', true);
      const conditions = isSeq(criteria) ? criteria.items.filter(isMap) : [];
      const statusCodes = conditions.flatMap((criterion) => {
        const condition = criterion.get('condition', true);
        const match = isScalar(condition) && typeof condition.value === 'string' ? /^\$statusCode == (\d{3})$/.exec(condition.value) : null;
        if (match === null) return [];
        if (!responseStatuses.includes(match[1] ?? '')) report({ node: condition as Node }, `${where} expects the status ${match[1] ?? ''}, which the contract does not document (${responseStatuses.join(', ')}).`);
        return [match[1] ?? ''];
      });
      const body = model.responses.find((response) => response.status === statusCodes[0])?.bodyFields ?? [];
      const checkMember = (node: Node, pointer: string, compared: string | undefined): void => {
        const segments = pointer.split('/').filter((segment) => segment !== '');
        const { field, missing } = fieldAt(body, segments);
        if (missing !== undefined) {
          report({ node }, `${where} reads \`${missing}\` from the ${statusCodes[0] ?? 'expected'} answer, which the contract does not give it.`);
          return;
        }
        if (compared === undefined || field === undefined) return;
        const allowed = refusalListed(segments) ? actionNames : listedValues(field);
        if (allowed !== undefined && !allowed.includes(compared)) {
          report({ node }, `${where} compares \`${segments.join('/')}\` with '${compared}', which is not one of the values the contract lists (${allowed.join(', ')}).`);
        }
      };
      for (const criterion of conditions) {
        const condition = criterion.get('condition', true);
        if (!isScalar(condition) || typeof condition.value !== 'string') continue;
        const context = criterion.get('context', true);
        if (isScalar(context) && typeof context.value === 'string') {
          const pointer = /^\$response\.body#(\/.*)$/.exec(context.value)?.[1];
          const literal = /'((?:[^']|'')*)'/.exec(condition.value)?.[1];
          if (pointer !== undefined) checkMember(context, pointer, literal);
          continue;
        }
        const compared = /^\$response\.body#(\/\S*) == (?:'((?:[^']|'')*)'|(\S+))$/.exec(condition.value);
        if (compared !== null) checkMember(condition, compared[1] ?? '', compared[2]);
      }
      const outputs = step.get('outputs', true);
      const names: string[] = [];
      if (isMap(outputs)) {
        for (const pair of outputs.items) {
          names.push(String(isScalar(pair.key) ? pair.key.value : pair.key));
          const pointer = isScalar(pair.value) && typeof pair.value.value === 'string' ? /^\$response\.body#(\/.*)$/.exec(pair.value.value)?.[1] : undefined;
          if (pointer !== undefined) checkMember(pair.value as Node, pointer, undefined);
        }
      }
      outputsOf.set(stepId, names);
    }
  }
  return problems;
}

function scalarsIn(node: unknown): Scalar[] {
  if (isScalar(node)) return [node];
  if (isMap(node)) return (node as YAMLMap).items.flatMap((pair) => scalarsIn(pair.value));
  if (isSeq(node)) return node.items.flatMap(scalarsIn);
  return [];
}

/** Lints an Arazzo file with Redocly and checks its names against the contract: every problem of both. */
export async function checkArazzoFile(file: string, contract: ExecutableContract, projectDirectory: string): Promise<GateProblem[]> {
  const relative = path.relative(projectDirectory, file).split(path.sep).join('/');
  const linted = lintWithRedocly(file, projectDirectory);
  const named = checkWorkflowNames(readFileSync(file, 'utf8'), relative, contract);
  return [...(await linted), ...named];
}

/** The step of `npm run lint`: generate the workflows beside the bundle, lint them, check their names. */
export const arazzoWorkflowsStep: GateStep = {
  name: 'Arazzo workflows',
  async run(context: GateContext) {
    let contract: ExecutableContract;
    try {
      contract = readExecutableContractWith(context.document, noSchemaValidator);
    } catch {
      // The reference model step names whatever keeps the model from being read.
      return [];
    }
    const file = path.join(path.dirname(context.bundlePath), arazzoFileName);
    try {
      writeFileSync(file, arazzoYaml(contract));
    } catch (error) {
      return [{ file: context.root, message: `The lifecycle's workflows cannot be generated: ${(error as Error).message}`, rule: workflowsRule }];
    }
    return checkArazzoFile(file, contract, context.projectDirectory);
  },
};
