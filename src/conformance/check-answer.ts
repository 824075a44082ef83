import { describeSchemaErrors } from '../lib/contract/schema-validator.ts';
import { isRecord } from '../lib/contract/document.ts';
import { isRetryAfter } from '../lib/http/retry-after.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { jsonMediaType } from '../lib/contract/request-body.ts';
import { errorDataField } from '../lib/contract/response-names.ts';
import type { Expectation, ReceivedAnswer } from './case-model.ts';
import { expectationProblems } from './expectation.ts';
import { unnamedMembers } from './unnamed-members.ts';

export type { ReceivedAnswer } from './case-model.ts';

/** What the document alone says of an answer: mismatches, and members it does not name. */
export interface DocumentCheck {
  /** What is wrong, each in a sentence: a case with any fails. */
  problems: string[];
  /** Members the document does not name, which clients must tolerate: reported, never a failure. */
  notes: string[];
}

/**
 * Checks an answer against the document alone, whatever was asked. Strict on what the document
 * names: a documented status, a JSON body declared as JSON, every required member present and
 * every named member of the right type and value (the published schema), `data.status` equal to
 * the HTTP status, a required header present and well formed. Tolerant of what it does not name:
 * a member no schema names (WordPress adds `data.details`, for one) is a note, as the document
 * asks every client to ignore it.
 */
export function reviewAnswer(contract: ExecutableContract, answer: ReceivedAnswer, expectedStatus?: number): DocumentCheck {
  const response = contract.response(answer.status);
  if (response === undefined) {
    const documented = contract.model.responses.map((candidate) => candidate.status).join(', ');
    return { problems: [`status ${answer.status} is not one the document gives (${documented})`], notes: [] };
  }
  const problems: string[] = [];
  for (const header of response.headers) {
    const value = answer.headers[header.name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`the ${answer.status} answer lacks the ${header.name} header the document requires`);
    } else if (header.name === contract.retryAfterHeader && !isRetryAfter(value.trim())) {
      problems.push(`${header.name} is "${value}", neither seconds nor an HTTP date`);
    }
  }
  if (response.body === undefined) return { problems, notes: [] };

  const mediaType = (answer.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== jsonMediaType) problems.push(`Content-Type is "${answer.headers['content-type'] ?? ''}", not ${jsonMediaType}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return { problems: [...problems, `the body is not JSON: ${JSON.stringify(answer.body.slice(0, 120))}`], notes: [] };
  }
  const validate = contract.schemas.schemaAt(response.body.pointer);
  // One finding per member: the schema may say two things of one wrong value (its type, its constant).
  const membersFound = new Set<string>();
  if (!validate(body)) {
    for (const problem of describeSchemaErrors(validate.errors ?? [])) {
      const member = /^`[^`]+`/.exec(problem)?.[0];
      if (member !== undefined && membersFound.has(member)) continue;
      if (member !== undefined) membersFound.add(member);
      // Worded without the schema's name, so the same fault in answers of several statuses is one finding.
      problems.push(problem);
    }
  }
  const data = isRecord(body) ? body[errorDataField] : undefined;
  const statusMember = `\`${errorDataField}.${contract.errors.statusMember}\``;
  if (response.isError && isRecord(data) && data[contract.errors.statusMember] !== answer.status && !membersFound.has(statusMember)) {
    problems.push(`\`${errorDataField}.${contract.errors.statusMember}\` is ${JSON.stringify(data[contract.errors.statusMember])}, not the HTTP status ${answer.status}`);
  }
  const code = isRecord(body) && typeof body.code === 'string' ? body.code : String(answer.status);
  // A member the document names for the status the case expected is not unnamed: the wrong status is the fault.
  const expectedBody = expectedStatus === undefined || expectedStatus === answer.status ? undefined : contract.response(expectedStatus)?.body;
  const namedThere = new Set(
    expectedBody === undefined ? [] : unnamedMembers(contract.document, { $ref: expectedBody.pointer }, body).map((member) => `${member.parent}.${member.name}`),
  );
  const unnamed = unnamedMembers(contract.document, { $ref: response.body.pointer }, body).filter(
    (member) => expectedBody === undefined || namedThere.has(`${member.parent}.${member.name}`),
  );
  const notes = unnamed.map(
    (member) => `${member.parent === '' ? 'the body' : `\`${member.parent}\``} has a member the document does not name: \`${member.name}\` (${code})`,
  );
  return { problems, notes };
}

/** What is wrong with an answer by the document alone: `reviewAnswer`'s mismatches, without the notes. */
export function checkAgainstDocument(contract: ExecutableContract, answer: ReceivedAnswer): string[] {
  return reviewAnswer(contract, answer).problems;
}

/** A case's verdict on one answer: each fault once, what follows from the faults counted, and the notes. */
export interface Verdict {
  /** The faults, each in a sentence in the wire's names. */
  problems: string[];
  /** Mismatches that only follow from a fault (the schema of the status answered instead): counted under it, not listed. */
  following: string[];
  notes: string[];
}

/**
 * Judges an answer against the case's expectation and the document. A fault that explains other
 * mismatches is the finding, and the others are counted under it: a wrong status explains every
 * check of the status answered instead; a member missing or wrong explains the schema's complaint
 * about that member and the choice (`oneOf`) it breaks.
 */
export function judgeAnswer(contract: ExecutableContract, answer: ReceivedAnswer, expected: Expectation): Verdict {
  const { problems: causes, members, wrongStatus } = expectationProblems(contract, answer, expected);
  const onDocument = reviewAnswer(contract, answer, wrongStatus ? expected.status : undefined);
  if (causes.length === 0) return { problems: onDocument.problems, following: [], notes: onDocument.notes };
  if (wrongStatus) return { problems: causes, following: onDocument.problems, notes: onDocument.notes };
  const follows = (problem: string) =>
    /must match (exactly one|a) schema in (oneOf|anyOf)/.test(problem) ||
    members.some((member) => {
      const last = member.split('.').at(-1) ?? member;
      return problem.includes(`\`${member}\``) || problem.includes(`'${last}'`);
    });
  return {
    problems: [...causes, ...onDocument.problems.filter((problem) => !follows(problem))],
    following: onDocument.problems.filter(follows),
    notes: onDocument.notes,
  };
}
