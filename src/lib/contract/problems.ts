import { ContractError } from './document.ts';
import { contractError, describeLocation } from './schemas.ts';

/**
 * Something wrong with the contract, at a JSON pointer of the bundled document. The gate turns
 * the pointer into `file: line N` (src/gate/source-files.ts); the site names it.
 */
export interface ContractProblem {
  message: string;
  /** A JSON pointer of the bundled document, such as `#/x-transitions/actions/trial_end/to`. */
  location: string;
}

/**
 * How a reader of the model tells of a problem and goes on reading, as Redocly's rules do with
 * `report({ message, location })`: the gate collects every problem, the site stops at the end.
 */
export type ReportProblem = (problem: ContractProblem) => void;

/** The reporter of a reader asked for a whole model: the first problem ends the reading. */
export const throwAtFirst: ReportProblem = (problem) => {
  throw contractError(problem.location, problem.message);
};

/**
 * Reads one part of the model whose reader signals a problem by throwing a located
 * `ContractError`: the problem is reported at its place and the caller goes on without the part
 * (undefined), reading every part that does not depend on it.
 */
export function attempt<T>(report: ReportProblem, read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    report({ location: error.pointer ?? '#', message: error.problem });
    return undefined;
  }
}

/** Runs a reader with a reporter that keeps every problem, and returns both. */
export function collectProblems<T>(read: (report: ReportProblem) => T): { value: T; problems: ContractProblem[] } {
  const problems: ContractProblem[] = [];
  const value = read((problem) => problems.push(problem));
  return { value, problems };
}

/** One `ContractError` that lists every problem, each with the place to look, one a line. */
export function contractErrorListing(problems: readonly ContractProblem[]): ContractError {
  const [first, ...others] = problems;
  if (first === undefined) throw new Error('contractErrorListing needs at least one problem');
  const more = others.map((problem) => `\n${describeLocation(problem.location)}: ${problem.message}`).join('');
  return new ContractError(describeLocation(first.location), `${first.message}${more}`);
}

/** The throwing convenience for readers that must give a whole model: a reader, then every problem it reported. */
export function readOrThrow<T>(read: (report: ReportProblem) => T): T {
  const { value, problems } = collectProblems(read);
  if (problems.length > 0) throw contractErrorListing(problems);
  return value;
}
