import { isRecord } from './document.ts';
import type { NamedExample, ResponseRow } from './model.ts';
import { jsonMediaType } from './request-body.ts';
import { responseListPointer, responseWithStatus } from './response-lookups.ts';
import { conflictStatus, errorCodeField, unknownFieldExampleName } from './response-names.ts';
import { childPointer, contractError, exactlyOne } from './schemas.ts';

/** What a shop answers to a field its release does not know, as the contract's example shows it. */
export interface UnknownFieldAnswer {
  status: string;
  code: string;
  /** The member of the error body that holds the details, such as `data`. */
  detailsMember: string;
  /** The member of the details that names each refused field, such as `params`. */
  fieldsMember: string;
  example: NamedExample;
}

/** The single member of an example object whose value is itself an object or a list. */
function nestedMember(value: Record<string, unknown>, pointer: string, what: string): string {
  const names = Object.keys(value).filter((name) => typeof value[name] === 'object' && value[name] !== null);
  return exactlyOne(names, pointer, what, (name) => name);
}

/**
 * The answer to a request that sends a field the shop's release does not know: the error
 * example named `unknown_field`, its code, and where in its body the refused field is named.
 */
export function unknownFieldAnswer(responses: ResponseRow[]): UnknownFieldAnswer {
  const found = responses.flatMap((response) =>
    response.isError ? response.examples.filter((example) => example.name === unknownFieldExampleName).map((example) => ({ response, example })) : [],
  );
  const { response, example } = exactlyOne(found, responseListPointer(responses, found.map(({ response }) => response)), `\`${unknownFieldExampleName}\` error example`, ({ response }) => response.status);
  const pointer = childPointer(response.pointer, 'content', jsonMediaType, 'examples', unknownFieldExampleName);
  const value = example.value;
  if (!isRecord(value) || typeof value[errorCodeField] !== 'string') throw contractError(pointer, `the example has no \`${errorCodeField}\``);
  const code = value[errorCodeField];
  if (!response.errorCodes.some((known) => known.code === code)) {
    throw contractError(pointer, `the example's code \`${code}\` is not one the ${response.status} response documents`);
  }
  const detailsMember = nestedMember(value, pointer, 'member of the error body with details');
  const details = value[detailsMember];
  if (!isRecord(details)) throw contractError(pointer, `\`${detailsMember}\` is expected to be an object`);
  const fieldsMember = nestedMember(details, pointer, `member of \`${detailsMember}\` that names the refused fields`);
  return { status: response.status, code, detailsMember, fieldsMember, example };
}

/** The members of a refusal's details, as the conflict response's examples show them. */
export interface RefusalDetails {
  /** The member of the error body that holds the details, such as `data`. */
  detailsMember: string;
  /** The member naming the subscription's status, such as `current_status`. */
  currentStatus: string;
  /** The member listing the actions that would change the subscription, such as `allowed_actions`. */
  allowedActions: string;
  /** Each example's status and the actions it lists, for checking against the lifecycle. */
  examples: { name: string; status: string; actions: string[] }[];
}

/** Reads the conflict response's examples: where they name the status and the actions it allows. */
export function refusalDetails(responses: ResponseRow[], states: string[]): RefusalDetails {
  const conflict = responseWithStatus(responses, conflictStatus, 'to an action the current status refuses');
  const examplesPointer = childPointer(conflict.pointer, 'content', jsonMediaType, 'examples');
  const read = conflict.examples.map((example) => {
    const pointer = childPointer(examplesPointer, example.name);
    if (!isRecord(example.value)) throw contractError(pointer, 'the example is expected to be an object');
    const detailsMember = nestedMember(example.value, pointer, 'member of the error body with details');
    const details = example.value[detailsMember];
    if (!isRecord(details)) throw contractError(pointer, `\`${detailsMember}\` is expected to be an object`);
    const currentStatus = exactlyOne(
      Object.keys(details).filter((name) => typeof details[name] === 'string' && states.includes(details[name] as string)),
      pointer,
      'member naming the current status',
      (name) => name,
    );
    const allowedActions = exactlyOne(
      Object.keys(details).filter((name) => Array.isArray(details[name])),
      pointer,
      'member listing the allowed actions',
      (name) => name,
    );
    const actions = details[allowedActions] as unknown[];
    if (!actions.every((action): action is string => typeof action === 'string')) throw contractError(pointer, `\`${allowedActions}\` is expected to list strings`);
    return { name: example.name, detailsMember, currentStatus, allowedActions, status: details[currentStatus] as string, actions };
  });
  const [first] = read;
  if (first === undefined) throw contractError(examplesPointer, 'the conflict response needs an example');
  const differing = read.find((entry) => entry.currentStatus !== first.currentStatus || entry.allowedActions !== first.allowedActions || entry.detailsMember !== first.detailsMember);
  if (differing !== undefined) throw contractError(childPointer(examplesPointer, differing.name), 'names its details differently from the other examples');
  return {
    detailsMember: first.detailsMember,
    currentStatus: first.currentStatus,
    allowedActions: first.allowedActions,
    examples: read.map(({ name, status, actions }) => ({ name, status, actions })),
  };
}
