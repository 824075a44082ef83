/**
 * The gate runs the model: the readers the site, the sandbox and the servers build on, over the
 * bundled document, each problem reported where it is and the reading going on. So whatever the
 * build refuses, `npm run lint` refuses first, with the file and the line.
 */
import { checkReferenceModel } from '../lib/contract/actions.ts';
import type { OpenApiDocument } from '../lib/contract/document.ts';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';
import { factsOf } from '../lib/contract/facts.ts';
import { checkExamplesAgainstLifecycle } from '../lib/contract/example-truth.ts';
import { attempt, type ContractProblem } from '../lib/contract/problems.ts';
import { readResultShape } from '../lib/contract/response-shapes.ts';
import { sampleStatuses } from '../lib/samples/sample-statuses.ts';
import { routeArguments } from '../lib/contract/route-arguments.ts';
import type { GateContext, GateProblem, GateStep } from './gate.ts';
import { createSourceLocator, pointerSegments } from './source-files.ts';

/** How the gate names the problems of this step, between brackets. */
export const referenceModelRule = 'reference model';

/**
 * Every problem the model finds in a bundled document: the reference model (endpoint, request
 * body, actions, lifecycle, responses), then, once it is whole, the facts the guides show, the
 * examples against the lifecycle, the executable contract the sandbox and the servers serve, and
 * what the sandbox and the samples derive from it.
 */
export function referenceModelProblems(document: OpenApiDocument): ContractProblem[] {
  const problems: ContractProblem[] = [];
  // Two readers may meet one problem (the facts read the result's shape too): it is reported once.
  const report = (problem: ContractProblem): void => {
    if (!problems.some((known) => known.location === problem.location && known.message === problem.message)) problems.push(problem);
  };
  const model = readingAnyway(report, () => checkReferenceModel(document, report));
  if (model === undefined || problems.length > 0) return problems;
  readingAnyway(report, () => attempt(report, () => factsOf(model)));
  const result = readingAnyway(report, () => attempt(report, () => readResultShape(model)));
  if (result !== undefined) readingAnyway(report, () => checkExamplesAgainstLifecycle(model, result, report));
  const contract = readingAnyway(report, () => attempt(report, () => readExecutableContract(document)));
  if (contract === undefined) return problems;
  // What the consumers derive from the contract beyond the model, each refusing what it cannot
  // serve: the sandbox's and the plugin's route arguments, and the statuses the samples branch on.
  readingAnyway(report, () => attempt(report, () => routeArguments(contract)));
  readingAnyway(report, () => attempt(report, () => sampleStatuses(contract.model.responses)));
  return problems;
}

/**
 * A library the model hands the document to can refuse it in its own words: Ajv compiling the
 * schemas says `schema is invalid: data/$defs/Note/type must be …`. That is a problem of the
 * contract too, reported at the schema it names, never a crash of the gate.
 */
function readingAnyway<T>(report: (problem: ContractProblem) => void, read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const schema = /\bdata\/\$defs\/([^/\s,]+)/.exec(message);
    const location = schema?.[1] === undefined ? '#' : `#/components/schemas/${schema[1]}`;
    report({ location, message: `The model cannot read the document: ${message}` });
    return undefined;
  }
}

const componentKinds: Record<string, string> = { schemas: 'Schema', responses: 'Response', requestBodies: 'Request body', examples: 'Example', parameters: 'Parameter', headers: 'Header' };
/** Segments that only lead the way to what a reader names: the media type's content, an example's value. */
const wayMarks: Record<string, string | undefined> = { content: undefined, value: undefined, schema: 'schema', items: 'items', properties: 'property', examples: 'example', headers: 'header', moves: 'move', responses: 'response', actions: 'action' };

/**
 * The place a pointer names, in words (`Response ActionSucceeded, example \`pause_subscription\``):
 * the file and the line already say where it is, the words say what it is without JSON pointer
 * syntax (`application~1json`).
 */
export function placeInWords(pointer: string): string {
  const segments = pointerSegments(pointer);
  const words: string[] = [];
  let rest = segments;
  if (segments[0] === 'components' && segments.length >= 3) {
    words.push(`${componentKinds[segments[1] ?? ''] ?? segments[1]} ${segments[2]}`);
    rest = segments.slice(3);
  } else if (segments[0] === 'paths' && segments.length >= 3) {
    words.push(`${segments[2]?.toUpperCase()} ${segments[1]}`);
    rest = segments.slice(3);
  } else if (segments[0] !== undefined) {
    words.push(segments[0]);
    rest = segments.slice(1);
  }
  for (let index = 0; index < rest.length; index += 1) {
    const segment = rest[index] ?? '';
    if (segment in wayMarks) {
      const word = wayMarks[segment];
      if (segment === 'content') index += 1; // the media type that follows
      else if (word !== undefined && ['schema', 'items'].includes(segment)) words.push(word);
      else if (word !== undefined && rest[index + 1] !== undefined) {
        index += 1;
        words.push(`${word} \`${rest[index]}\``);
      }
    } else {
      words.push(/^\d+$/.test(segment) ? `item ${Number(segment) + 1}` : `\`${segment}\``);
    }
  }
  return words.length === 0 ? 'The document' : words.join(', ');
}

/** A reader's message says what is wrong at its place; a bare predicate ("is missing: …") gets the place, in words, as its subject. */
function sentence(problem: ContractProblem): string {
  if (!/^[a-z`]/.test(problem.message)) return problem.message;
  const predicate = /^(?:is|are|has|lacks|sends|maps|names|refers|requires|repeats|lists)\b/.test(problem.message);
  return `${placeInWords(problem.location)}${predicate ? ' ' : ': '}${problem.message}`;
}

/** The gate step: the model's problems, each tied to the source file to open. */
export const referenceModelStep: GateStep = {
  name: referenceModelRule,
  run(context: GateContext): GateProblem[] {
    const locate = createSourceLocator(context.projectDirectory, context.root);
    return referenceModelProblems(context.document).map((problem) => ({
      ...locate(problem.location),
      message: sentence(problem),
      cause: problem.message,
      rule: referenceModelRule,
    }));
  },
};
