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
  const model = checkReferenceModel(document, report);
  if (model !== undefined && problems.length === 0) {
    attempt(report, () => factsOf(model));
    attempt(report, () => readExecutableContract(document));
  }
  return problems;
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
