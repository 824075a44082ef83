import { isRecord } from '../lib/contract/document.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { Field } from '../lib/contract/model.ts';
import { outcomeOf, transitionsPointer } from '../lib/contract/lifecycle.ts';
import { errorDataField } from '../lib/contract/response-names.ts';
import type { ConformanceCase, Expectation, ReceivedAnswer } from './case-model.ts';
import { parsedCode } from './answer-reading.ts';

/**
 * "Refused a request the contract allows": a case whose request is valid by the document (a move
 * of the lifecycle, a value at the edge of a bound, an optional field left out, a generated body)
 * answered with a refusal of the request. The finding names the rule of the document that allows
 * it, worded by the rule and never by the value sent, so one fault (a bound drawn tighter, a field
 * made required) is one finding however many cases meet it; the case's own detail says where.
 */
export interface AllowedRefusal {
  /** The finding: the rule that allows the request, and the status expected and answered. */
  finding: string;
  /** The rule as it applies to this request: the schema or the move, and what was sent. */
  allowedBy: string;
}

/** The groups whose requests are valid by the document: their refusal is a refusal of what it allows. */
const validRequestGroups = new Set<ConformanceCase['group']>(['lifecycle', 'acceptance', 'generated']);

function parseBody(body: string | Uint8Array | undefined): Record<string, unknown> | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The fields a refusal names in its `params`: a list of the missing ones, or an object of the rejected ones. */
function namedFields(contract: ExecutableContract, answer: ReceivedAnswer): string[] {
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [];
  }
  const data = isRecord(body) ? body[errorDataField] : undefined;
  const params = isRecord(data) ? data[contract.errors.paramsMember] : undefined;
  if (Array.isArray(params)) return params.filter((name): name is string => typeof name === 'string');
  return isRecord(params) ? Object.keys(params) : [];
}

/** A rule of the document that allows a request; `byField` when a field's schema allows it, whatever the lifecycle answers. */
interface Rule {
  rule: string;
  detail: string;
  byField?: boolean;
}

function sentValue(value: unknown): string {
  if (typeof value === 'string') {
    const length = [...value].length;
    return `a string of ${length} ${length === 1 ? 'character' : 'characters'}`;
  }
  return JSON.stringify(value);
}

/** The rule that lets the request carry (or leave out) this field, in words that do not depend on the value sent. */
function fieldRule(field: Field, body: Record<string, unknown>, actionPointer: string): Rule {
  if (!(field.name in body)) {
    return { rule: `\`${field.name}\` is optional, and it was left out`, detail: `${actionPointer} does not require \`${field.name}\``, byField: true };
  }
  const value = body[field.name];
  const enumeration = field.constraints.find((constraint) => constraint.keyword === 'enum');
  if (enumeration?.values?.includes(value as never) === true) {
    return { rule: `\`${field.name}\` ${JSON.stringify(value)} is a value its enumeration lists`, detail: `${field.pointer} lists ${JSON.stringify(value)} among ${enumeration.values.map((item) => JSON.stringify(item)).join(', ')}`, byField: true };
  }
  const bounds = field.constraints.filter((constraint) => constraint.limit !== undefined).map((constraint) => constraint.label);
  return {
    rule: `\`${field.name}\` within its bounds (${[field.type, ...bounds].join(', ')})`,
    detail: `${field.pointer} allows ${sentValue(value)}${bounds.length === 0 ? '' : `: ${bounds.join(', ')}`}`,
    byField: true,
  };
}

/** Why the document allows this request: a field the refusal names, a move of the lifecycle table, or the body's schema. */
function allowingRule(contract: ExecutableContract, testCase: ConformanceCase, body: Record<string, unknown>, answer: ReceivedAnswer): Rule {
  const action = contract.action(String(body[contract.model.envelope.selector]));
  if (action === undefined) return { rule: 'the request is valid by the document', detail: 'the request body' };
  for (const name of namedFields(contract, answer)) {
    const field = action.fields.find((candidate) => candidate.name === name);
    if (field !== undefined) return fieldRule(field, body, action.pointer);
  }
  const { transitionNotAllowed } = contract.errors;
  if (parsedCode(answer) === transitionNotAllowed.code && testCase.fromStatus !== undefined) {
    const requested = action.transition.kind === 'chosen' ? body[action.transition.field] : undefined;
    const requestedText = typeof requested === 'string' ? requested : undefined;
    const outcome = outcomeOf(action.transition, testCase.fromStatus, requestedText);
    const move = `${action.identifier}${requestedText === undefined ? '' : ` to ${requestedText}`} from ${testCase.fromStatus}`;
    return {
      rule: `the lifecycle table (${transitionsPointer}) accepts ${move}`,
      detail: `${transitionsPointer}: ${move} ${outcome.kind === 'changed' ? `leads to ${outcome.to}` : 'changes nothing'}`,
    };
  }
  return { rule: `the body is valid for ${action.identifier} by the request body's schema`, detail: `${action.pointer} describes the body sent` };
}

/**
 * The refusal of a request the document allows, if the answer is one: a refusal of the request
 * (a 4xx) where the document gives another answer. A refusal with the right code but the wrong
 * status, a crash (5xx) or a host's throttling is a finding of its own kind.
 */
export function allowedRefusal(contract: ExecutableContract, testCase: ConformanceCase, expected: Expectation, request: { body?: string | Uint8Array }, answer: ReceivedAnswer): AllowedRefusal | undefined {
  if (!validRequestGroups.has(testCase.group)) return undefined;
  if (answer.status < 400 || answer.status >= 500 || answer.status === expected.status || answer.status === Number(contract.throttled.status)) return undefined;
  if (expected.code !== undefined && parsedCode(answer) === expected.code) return undefined;
  const body = parseBody(request.body);
  if (body === undefined) return undefined;
  const { rule, detail, byField } = allowingRule(contract, testCase, body, answer);
  // A field refused is one fault whatever the lifecycle would have answered: the case's expectation is in its example.
  const answered = byField === true ? `answered ${answer.status}` : `expected status ${expected.status}, got ${answer.status}`;
  return { finding: `refused a request the contract allows: ${rule}; ${answered}`, allowedBy: detail };
}
