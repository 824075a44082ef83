/**
 * The gate runs the model: the readers the site, the sandbox and the servers build on, over the
 * bundled document, each problem reported where it is and the reading going on. So whatever the
 * build refuses, `npm run lint` refuses first, with the file and the line.
 */
import { checkReferenceModel } from '../lib/contract/actions.ts';
import type { OpenApiDocument } from '../lib/contract/document.ts';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';
import { factsOf } from '../lib/contract/facts.ts';
import { attempt, type ContractProblem } from '../lib/contract/problems.ts';
import type { GateContext, GateProblem, GateStep } from './gate.ts';
import { createSourceLocator } from './source-files.ts';

/** How the gate names the problems of this step, between brackets. */
export const referenceModelRule = 'reference model';

/**
 * Every problem the model finds in a bundled document: the reference model (endpoint, request
 * body, actions, lifecycle, responses), then, once it is whole, the facts the guides show and the
 * executable contract the sandbox and the servers serve.
 */
export function referenceModelProblems(document: OpenApiDocument): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const report = (problem: ContractProblem): void => {
    problems.push(problem);
  };
  const model = readingAnyway(report, () => checkReferenceModel(document, report));
  if (model !== undefined && problems.length === 0) {
    readingAnyway(report, () => attempt(report, () => factsOf(model)));
    readingAnyway(report, () => attempt(report, () => readExecutableContract(document)));
  }
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

/** A reader's message says what is wrong at its place; a bare predicate ("is missing: …") gets the pointer as its subject. */
function sentence(problem: ContractProblem): string {
  return /^[a-z`]/.test(problem.message) ? `${problem.location} ${problem.message}` : problem.message;
}

/** The gate step: the model's problems, each tied to the source file to open. */
export const referenceModelStep: GateStep = {
  name: referenceModelRule,
  run(context: GateContext): GateProblem[] {
    const locate = createSourceLocator(context.projectDirectory, context.root);
    return referenceModelProblems(context.document).map((problem) => ({
      ...locate(problem.location),
      message: sentence(problem),
      rule: referenceModelRule,
    }));
  },
};
