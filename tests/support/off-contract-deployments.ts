import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conformanceSeed } from '../../src/conformance/own-sandbox.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { allowedActions } from '../../src/lib/contract/lifecycle.ts';
import { jsonMediaType } from '../../src/lib/contract/request-body.ts';
import { successResponse } from '../../src/lib/contract/response-lookups.ts';
import { errorDataField } from '../../src/lib/contract/response-names.ts';
import type { Answer } from '../../src/sandbox/answer.ts';
import { defaultApiKey } from '../../src/sandbox/seed.ts';
import { answerRequest, type SandboxRequest } from '../../src/sandbox/server.ts';
import { openStore, type Subscription, type SubscriptionStore } from '../../src/sandbox/store.ts';

/**
 * Deployments off the contract, each made from the sandbox by breaking one rule: a wrapper over
 * its `answerRequest` that changes the request before it or the answer after it. Every fact is read
 * from the contract (statuses, codes, member names, bounds), so the set follows the document.
 */
export interface OffContract {
  /** What is broken, as a maintainer would say it. */
  kind: string;
  /** What the suite's report must say: the finding, and where it helps the case it was found in. */
  finding: RegExp;
  request?: (request: SandboxRequest) => SandboxRequest;
  answer?: (answer: Answer, request: SandboxRequest) => Answer;
  /** How many findings the report has, where one fault must make one finding whatever the values. */
  findings?: number;
  /** The exit code the run must end with, where not 1 (a mismatch): an answer off the document at set-up has its own. */
  exit?: 'setupMismatch';
  /** The store the sandbox answers from, changed. */
  store?: (store: SubscriptionStore) => SubscriptionStore;
  /** It refuses a value at an end of a field the contract leaves open, which a fixed case must catch on every run, whatever the seed. */
  openEnd?: boolean;
}

type Json = Record<string, unknown>;

function parse(text: string | Uint8Array): Json | undefined {
  try {
    const value: unknown = JSON.parse(typeof text === 'string' ? text : new TextDecoder().decode(text));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The answer with its JSON body changed; an answer that is not a JSON object is left alone. */
function rewriteBody(answer: Answer, change: (body: Json) => Json | undefined): Answer {
  const body = parse(answer.body);
  const changed = body === undefined ? undefined : change(structuredClone(body));
  return changed === undefined ? answer : { ...answer, body: JSON.stringify(changed) };
}

function rewriteData(answer: Answer, change: (data: Json) => void): Answer {
  return rewriteBody(answer, (body) => {
    const data = body[errorDataField];
    if (!isRecord(data)) return undefined;
    change(data);
    return body;
  });
}

function withBody(request: SandboxRequest, change: (body: Json) => Json | undefined): SandboxRequest {
  const body = parse(request.body);
  const changed = body === undefined ? undefined : change(body);
  return changed === undefined ? request : { ...request, body: Buffer.from(JSON.stringify(changed)) };
}

function headerValue(request: SandboxRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** WordPress's page for a PHP fatal error in a plugin (`wp_die`'s default handler), its styles first. */
const criticalErrorPage = `<!DOCTYPE html>
<html dir='ltr' lang='en-US'>
<head>
	<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
	<meta name="viewport" content="width=device-width">
	<title>WordPress &rsaquo; Error</title>
	<style type="text/css">
		html { background: #f1f1f1; }
		body { background: #fff; border: 1px solid #ccd0d4; color: #444; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Oxygen-Sans, Ubuntu, Cantarell, "Helvetica Neue", sans-serif; margin: 2em auto; padding: 1em 2em; max-width: 700px; box-shadow: 0 1px 1px rgba(0, 0, 0, .04); }
		h1 { border-bottom: 1px solid #dadada; clear: both; color: #666; font-size: 24px; margin: 30px 0 0 0; padding: 0; padding-bottom: 7px; }
		#error-page { margin-top: 50px; }
		#error-page p, #error-page .wp-die-message { font-size: 14px; line-height: 1.5; margin: 25px 0 20px; }
	</style>
</head>
<body id="error-page">
	<div class="wp-die-message"><p>There has been a critical error on this website.</p><p><a href="https://wordpress.org/documentation/article/faq-troubleshooting/">Learn more about troubleshooting WordPress.</a></p></div></body>
</html>`;

/** Whether WordPress's `sanitize_text_field` would change the text: control characters (line breaks and tabs among them), a `<`, white space at an end or two in a row. */
function sanitizingChanges(text: string): boolean {
  return /[\u0000-\u001f\u007f<]|^\s|\s$|\s\s/u.test(text);
}

/** The set: each deployment breaks one rule of the contract a deployment could break. */
export function offContractDeployments(contract: ExecutableContract): OffContract[] {
  const { model, errors, result } = contract;
  const { envelope, lifecycle } = model;
  const successStatus = Number(successResponse(model.responses).status);
  const refused = errors.transitionNotAllowed;
  const isAnswer = (answer: Answer, error: { status: number; code: string }) => answer.status === error.status && parse(answer.body)?.code === error.code;
  const actionOf = (request: SandboxRequest) => model.actions.find((action) => action.identifier === parse(request.body)?.[envelope.selector]);
  const [, ...otherActions] = model.actions;
  const plainAction = otherActions.find((action) => action.transition.kind !== 'chosen') ?? model.actions[0];
  const data = (member: string) => `${errorDataField}\\.${member}`;
  const bounded = (keyword: string) => model.actions.flatMap((action) => action.fields).filter((field) => field.constraints.some((constraint) => constraint.keyword === keyword));
  const chosen = model.actions.map((action) => ({ identifier: action.identifier, transition: action.transition })).find((action) => action.transition.kind === 'chosen');
  const chosenMoves = chosen?.transition.kind === 'chosen' ? chosen.transition : undefined;
  const chosenAction = chosenMoves === undefined ? undefined : { identifier: chosen?.identifier ?? '', field: chosenMoves.field, moves: chosenMoves.moves };
  // The last move of the table, and a value of the chosen status that is neither where the probe asks to go nor final.
  const lastMove = (chosenAction?.moves.slice(-1) ?? []).flatMap((move) => move.to.slice(-1).map((to) => ({ from: move.from, to })));
  const moveTargets = new Set(chosenAction?.moves.flatMap((move) => move.to));
  const enumValue = lifecycle.states.filter((status) => moveTargets.has(status) && !lifecycle.finalStates.includes(status)).slice(-1);
  const optionalField = model.actions
    .flatMap((action) => action.fields.filter((field) => !field.required).map((field) => ({ action, field })))
    .sort((left, right) => fieldUses(left.field.name) - fieldUses(right.field.name));
  function fieldUses(name: string): number {
    return model.actions.filter((action) => action.fields.some((field) => field.name === name)).length;
  }
  const limitOf = (name: string, keyword: string) =>
    model.actions
      .flatMap((action) => action.fields)
      .find((field) => field.name === name)
      ?.constraints.find((constraint) => constraint.keyword === keyword)?.limit;
  /** The sandbox's answer replaced by the refusal WordPress writes for a field its arguments reject. */
  const refuseField = (answer: Answer, name: string, reason: string): Answer => {
    const { status, code } = errors.invalidParameter;
    return { ...answer, status, body: JSON.stringify({ code, message: `Invalid parameter(s): ${name}`, data: { [errors.statusMember]: status, [errors.paramsMember]: { [name]: reason } } }) };
  };
  /** A deployment that refuses a value of `field` the contract allows, wherever `refuses` says, and answers everything else as the sandbox does. */
  const refusing = (kind: string, field: { name: string }, refuses: (value: unknown) => boolean, caseName: string): OffContract => ({
    kind,
    // A fixed case meets it on every run, whatever the generated bodies: the finding lists it.
    finding: new RegExp(`^✖ \\d+ cases?: refused a request the contract allows: \`${field.name}\` within its bounds \\([^)]*\\); answered ${errors.invalidParameter.status}\\n\\s+e\\.g\\.[\\s\\S]*\\S+ with ${field.name} ${caseName}`, 'm'),
    findings: 1,
    openEnd: true,
    answer: (answer, request) => {
      const value = parse(request.body)?.[field.name];
      return value !== undefined && refuses(value) ? refuseField(answer, field.name, `${field.name} is not a value the site can store.`) : answer;
    },
  });
  const [note] = bounded('maxLength');
  const openInteger = model.actions
    .flatMap((action) => action.fields)
    .find((field) => field.name !== envelope.subject && /^integer/.test(field.type) && !field.constraints.some((constraint) => constraint.keyword === 'maximum' || constraint.keyword === 'exclusiveMaximum'));
  const characters = (value: unknown) => (typeof value === 'string' ? [...value] : []);
  const int32 = 2 ** 31 - 1;
  const uint32 = 2 ** 32 - 1;
  // The most digits a DECIMAL(15,0) column keeps, short of the 16 of 2^53 - 1.
  const decimal15 = 10 ** 15 - 1;
  const noteEnds: OffContract[] =
    note === undefined
      ? []
      : [
          refusing(`\`${note.name}\` empty refused (an undocumented minLength of 1)`, note, (value) => value === '', 'empty'),
          refusing(`\`${note.name}\` of one character refused (an undocumented minLength of 2)`, note, (value) => characters(value).length === 1, 'of one ASCII character'),
          refusing(`\`${note.name}\` with a character past U+00FF refused (a latin1 column)`, note, (value) => characters(value).some((character) => (character.codePointAt(0) ?? 0) > 0xff), 'of one three-byte character'),
          refusing(
            `\`${note.name}\` with a character outside the Basic Multilingual Plane refused (a column in MySQL's three-byte utf8)`,
            note,
            (value) => characters(value).some((character) => (character.codePointAt(0) ?? 0) > 0xffff),
            'of one character outside the Basic Multilingual Plane',
          ),
          refusing(
            `\`${note.name}\` counted in UTF-16 units, as JavaScript's length counts (a character outside the Basic Multilingual Plane counted twice)`,
            note,
            (value) => typeof value === 'string' && value.length > (limitOf(note.name, 'maxLength') ?? Number.POSITIVE_INFINITY),
            'of \\d+ characters, all outside the Basic Multilingual Plane',
          ),
          refusing(`\`${note.name}\` kept in a VARCHAR(255): refused past 255 characters`, note, (value) => characters(value).length > 255, 'of \\d+ characters \\(its maximum\\)'),
          {
            // No fixed case sends such a note: only the generated pass meets it, and shrinks the body to the one character it needs.
            kind: `\`${note.name}\` refused where WordPress's sanitize_text_field would change it (a control character, a tag's "<", white space at an end or doubled)`,
            finding: new RegExp(`^✖ 1 case: refused a request the contract allows: \`${note.name}\` within its bounds \\([^)]*\\); answered ${errors.invalidParameter.status}\\n\\s+e\\.g\\.\\s+the smallest generated body refused \\(seed \\d+`),
            findings: 1,
            answer: (answer, request) => {
              const value = parse(request.body)?.[note.name];
              return typeof value === 'string' && sanitizingChanges(value) ? refuseField(answer, note.name, `${note.name} holds characters the site does not keep.`) : answer;
            },
          },
        ];
  // Deployments that refuse a value at an end of a field the contract leaves open: each must be
  // caught by a fixed case, on every run whatever the seed of the generated bodies.
  const openEnds: OffContract[] = [
    ...(openInteger === undefined
      ? []
      : [
          refusing(`\`${openInteger.name}\` kept in a signed 32-bit INT: refused past ${int32}`, openInteger, (value) => typeof value === 'number' && value > int32, `${int32 + 1}`),
          refusing(`\`${openInteger.name}\` kept in an INT UNSIGNED: refused past ${uint32}`, openInteger, (value) => typeof value === 'number' && value > uint32, `${uint32 + 1}`),
          refusing(`\`${openInteger.name}\` kept in a DECIMAL(15,0): refused past ${decimal15}`, openInteger, (value) => typeof value === 'number' && value > decimal15, `${Number.MAX_SAFE_INTEGER}`),
        ]),
    {
      kind: `\`${envelope.subject}\` kept in a signed 32-bit INT: an ID past ${int32} refused as invalid, not answered as a subscription the site does not have`,
      finding: new RegExp(`^✖ \\d+ cases?: expected status ${errors.subscriptionNotFound.status}, got ${errors.invalidParameter.status}\\n\\s+e\\.g\\.\\s+a subscription the site does not have, ${envelope.subject} ${int32 + 1}`, 'm'),
      findings: 1,
      openEnd: true,
      answer: (answer, request) => {
        const value = parse(request.body)?.[envelope.subject];
        return typeof value === 'number' && value > int32 ? refuseField(answer, envelope.subject, `${envelope.subject} is not a valid ID.`) : answer;
      },
    },
    ...noteEnds,
  ];

  return [
    {
      kind: 'state machine: an action its status does not accept succeeds without a change',
      finding: new RegExp(`expected status ${refused.status}, got ${successStatus}`),
      answer: (answer, request) => {
        const details = parse(answer.body)?.[errorDataField];
        if (!isAnswer(answer, refused) || !isRecord(details)) return answer;
        const current = details[errors.currentStatusMember];
        const success = { [result.successFlag]: true, [result.action]: actionOf(request)?.identifier, [result.subject]: parse(request.body)?.[envelope.subject], [result.previousStatus]: current, [result.status]: current, [result.changed]: false };
        return { ...answer, status: successStatus, body: JSON.stringify(success) };
      },
    },
    {
      kind: `state machine: ${plainAction?.identifier} refused where the lifecycle allows it`,
      finding: new RegExp(`expected status ${successStatus}, got ${refused.status}\\n\\s+e\\.g\\.\\s+${plainAction?.identifier}`),
      answer: (answer, request) => {
        const body = parse(answer.body);
        if (answer.status !== successStatus || body?.[result.changed] !== true || actionOf(request) !== plainAction) return answer;
        const current = String(body[result.previousStatus]);
        return { ...answer, status: refused.status, body: JSON.stringify({ code: refused.code, message: refused.message, data: { [errors.statusMember]: refused.status, [errors.currentStatusMember]: current, [errors.allowedActionsMember]: allowedActions(lifecycle, current) } }) };
      },
    },
    {
      kind: 'state machine: a change answered but not kept',
      finding: /a change answered was not kept/,
      store: (store) => ({ ...store, act: (id, decide) => store.act(id, (current) => ({ result: decide(current).result })) }),
    },
    {
      kind: `a PHP fatal error (500, HTML) after ${plainAction?.identifier} changed the subscription`,
      // Blamed on the request that erred, never on the next case that finds the subscription moved.
      // The page is shown by its title and first text, not by the styles that open it.
      finding: new RegExp(
        `expected status ${successStatus}, got 500, yet the request changed the subscription(?![\\s\\S]*\`${result.previousStatus}\` is not)[\\s\\S]*got:\\s+500 HTML page: title "WordPress › Error", body "There has been a critical error on this website\\.`,
      ),
      answer: (answer, request) =>
        actionOf(request) === plainAction && answer.status === successStatus && parse(answer.body)?.[result.changed] === true
          ? { status: 500, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: criticalErrorPage }
          : answer,
    },
    {
      kind: `state machine: ${plainAction?.identifier} answers the status before it as the status after`,
      finding: new RegExp(`^✖ \\d+ cases?: \`${result.status}\` is not the status the action moves to$`, 'm'),
      answer: (answer, request) =>
        actionOf(request) === plainAction && answer.status === successStatus
          ? rewriteBody(answer, (body) => (body[result.changed] === true ? { ...body, [result.status]: body[result.previousStatus] } : undefined))
          : answer,
    },
    {
      kind: `a retry that changes nothing says \`${result.changed}\`: true`,
      finding: new RegExp(`^✖ \\d+ cases: \`${result.changed}\` is true where the action changes nothing$`, 'm'),
      findings: 1,
      answer: (answer) => (answer.status === successStatus ? rewriteBody(answer, (body) => ({ ...body, [result.changed]: true })) : answer),
    },
    {
      kind: `the success body without \`${result.previousStatus}\``,
      finding: new RegExp(`^✖ \\d+ cases: \`${result.previousStatus}\` is missing from the ${successStatus} answer`, 'm'),
      answer: (answer) => (answer.status === successStatus ? rewriteBody(answer, ({ [result.previousStatus]: _dropped, ...rest }) => rest) : answer),
    },
    {
      kind: `the success body's \`${result.subject}\` as a string`,
      finding: new RegExp(`^✖ \\d+ cases: \`${result.subject}\` is a string where the document says integer$`, 'm'),
      findings: 1,
      answer: (answer) => (answer.status === successStatus ? rewriteBody(answer, (body) => ({ ...body, [result.subject]: String(body[result.subject]) })) : answer),
    },
    {
      kind: `the key sent back in the success body as \`${envelope.credential}\``,
      finding: new RegExp(`the answer sends the ${envelope.credential} back`),
      answer: (answer, request) =>
        answer.status === successStatus ? rewriteBody(answer, (body) => ({ ...body, [envelope.credential]: parse(request.body)?.[envelope.credential] })) : answer,
    },
    {
      kind: `a success answered ${successStatus + 1}`,
      finding: new RegExp(`expected status ${successStatus}, got ${successStatus + 1}`),
      answer: (answer) => (answer.status === successStatus ? { ...answer, status: successStatus + 1 } : answer),
    },
    {
      kind: `a refusal answered ${errors.invalidParameter.status} instead of ${refused.status}`,
      finding: new RegExp(`^✖ \\d+ cases: expected status ${refused.status}, got ${errors.invalidParameter.status}`, 'm'),
      answer: (answer) => (isAnswer(answer, refused) ? { ...answer, status: errors.invalidParameter.status } : answer),
    },
    {
      kind: 'a refusal with another code',
      finding: new RegExp(`^✖ \\d+ cases: \`code\` is not "${refused.code}"\\n[\\s\\S]*"conformance_other_code"`, 'm'),
      findings: 1,
      answer: (answer) => (isAnswer(answer, refused) ? rewriteBody(answer, (body) => ({ ...body, code: 'conformance_other_code' })) : answer),
    },
    {
      kind: `a refusal without \`${errors.currentStatusMember}\``,
      // The request that reads where each subscription stands meets it first: the run's one finding, at set-up.
      finding: new RegExp(`^✖ The site answered the request that only reads where a subscription stands off the document: .*its status cannot be read: \`${data(errors.currentStatusMember)}\` is missing`),
      exit: 'setupMismatch',
      answer: (answer) => (isAnswer(answer, refused) ? rewriteData(answer, (details) => delete details[errors.currentStatusMember]) : answer),
    },
    {
      kind: `\`${errors.allowedActionsMember}\` in another order`,
      // One fault, one finding: every case it was found in is counted under the one sentence.
      finding: new RegExp(`^✖ \\d+ cases: \`${data(errors.allowedActionsMember)}\` is not in the order of the request body's actions \\(${model.actions.map((action) => action.identifier).join(', ')}\\)$(?![\\s\\S]*^✖ .*${data(errors.allowedActionsMember)})`, 'm'),
      answer: (answer) =>
        isAnswer(answer, refused) ? rewriteData(answer, (details) => Array.isArray(details[errors.allowedActionsMember]) && (details[errors.allowedActionsMember] as unknown[]).reverse()) : answer,
    },
    {
      kind: `\`${errors.allowedActionsMember}\` listing every action, those that would change nothing too`,
      finding: new RegExp(`^✖ \\d+ cases: \`${data(errors.allowedActionsMember)}\` lists actions that would not change the status`, 'm'),
      findings: 1,
      answer: (answer) => (isAnswer(answer, refused) ? rewriteData(answer, (details) => (details[errors.allowedActionsMember] = model.actions.map((action) => action.identifier))) : answer),
    },
    {
      kind: `a refused key answered 403 instead of ${errors.invalidKey.status}`,
      finding: new RegExp(`expected status ${errors.invalidKey.status}, got 403`),
      answer: (answer) => (isAnswer(answer, errors.invalidKey) ? { ...answer, status: 403, body: answer.body.replace(`:${errors.invalidKey.status}`, ':403') } : answer),
    },
    {
      kind: 'a refused key with another code',
      finding: new RegExp(`\`code\` is not "${errors.invalidKey.code}"\\n[\\s\\S]*"rest_forbidden"`),
      answer: (answer) => (isAnswer(answer, errors.invalidKey) ? rewriteBody(answer, (body) => ({ ...body, code: 'rest_forbidden' })) : answer),
    },
    {
      kind: 'a wrong key accepted',
      finding: new RegExp(`expected status ${errors.invalidKey.status}, got ${successStatus}\\n\\s+e\\.g\\.\\s+with a wrong ${envelope.credential}`),
      request: (request) => withBody(request, (body) => (typeof body[envelope.credential] === 'string' ? { ...body, [envelope.credential]: defaultApiKey } : undefined)),
    },
    {
      kind: 'the key accepted from the query string',
      finding: new RegExp(`expected status ${errors.invalidKey.status}, got ${successStatus}\\n\\s+e\\.g\\.\\s+with ${envelope.credential} only in the query string`),
      request: (request) => {
        const key = new URL(request.target, 'http://host').searchParams.get(envelope.credential);
        return key === null ? request : withBody(request, (body) => ({ ...body, [envelope.credential]: key }));
      },
    },
    {
      kind: 'the key accepted from a header',
      finding: new RegExp(`expected status ${errors.invalidKey.status}, got ${successStatus}\\n\\s+e\\.g\\.\\s+with ${envelope.credential} only in a header`),
      request: (request) => {
        const key = headerValue(request, 'x-api-key') ?? headerValue(request, 'authorization')?.replace(/^Bearer /, '');
        return key === undefined ? request : withBody(request, (body) => (body[envelope.credential] === undefined ? { ...body, [envelope.credential]: key } : undefined));
      },
    },
    {
      kind: 'the key and the fields accepted from a form body',
      finding: new RegExp(`expected status one of [\\d, ]+, got ${successStatus}\\n\\s+e\\.g\\.\\s+with ${envelope.credential} only in a form body`),
      request: (request) => {
        if (!String(headerValue(request, 'content-type')).startsWith('application/x-www-form-urlencoded')) return request;
        const fields = Object.fromEntries([...new URLSearchParams(request.body.toString())].map(([name, value]) => [name, /^\d+$/.test(value) ? Number(value) : value]));
        return { ...request, headers: { ...request.headers, 'content-type': jsonMediaType }, body: Buffer.from(JSON.stringify(fields)) };
      },
    },
    {
      kind: `a missing field not listed in \`${errors.paramsMember}\``,
      finding: new RegExp(`\`${data(errors.paramsMember)}\` does not list exactly the missing fields`),
      findings: 1,
      answer: (answer) => (isAnswer(answer, errors.missingParameter) ? rewriteData(answer, (details) => (details[errors.paramsMember] = [])) : answer),
    },
    {
      kind: `a rejected field without \`${errors.paramsMember}\``,
      finding: new RegExp(`\`${data(errors.paramsMember)}\` is missing from the ${errors.invalidParameter.status} answer`),
      answer: (answer) => (isAnswer(answer, errors.invalidParameter) ? rewriteData(answer, (details) => delete details[errors.paramsMember]) : answer),
    },
    {
      kind: 'unknown fields accepted',
      finding: new RegExp(`expected status ${errors.invalidParameter.status}, got ${successStatus}\\n\\s+e\\.g\\.\\s+\\S+ with a field it does not take`),
      request: (request) => {
        const action = actionOf(request);
        if (action === undefined) return request;
        const known = new Set(action.fields.map((field) => field.name));
        return withBody(request, (body) => Object.fromEntries(Object.entries(body).filter(([name]) => known.has(name))));
      },
    },
    {
      kind: "another action's fields accepted (checked against every field of the route)",
      finding: new RegExp(`expected status ${errors.invalidParameter.status}, got ${successStatus}\\n\\s+e\\.g\\.\\s+\\S+ with the fields only other actions take`),
      findings: 1,
      request: (request) => {
        const action = actionOf(request);
        if (action === undefined) return request;
        const routeFields = new Set(model.actions.flatMap((candidate) => candidate.fields.map((field) => field.name)));
        const own = new Set(action.fields.map((field) => field.name));
        return withBody(request, (body) => Object.fromEntries(Object.entries(body).filter(([name]) => own.has(name) || !routeFields.has(name))));
      },
    },
    {
      kind: 'a prefix of the key accepted',
      finding: new RegExp(`expected status ${errors.invalidKey.status}, got ${successStatus}\\n\\s+e\\.g\\.\\s+with ${envelope.credential} less its last character[\\s\\S]*with the first character of ${envelope.credential} only`),
      findings: 1,
      request: (request) =>
        withBody(request, (body) => {
          const key = body[envelope.credential];
          return typeof key === 'string' && key !== '' && defaultApiKey.startsWith(key) ? { ...body, [envelope.credential]: defaultApiKey } : undefined;
        }),
    },
    {
      kind: 'the key accepted in another case or with spaces around it',
      finding: new RegExp(`expected status ${errors.invalidKey.status}, got ${successStatus}\\n\\s+e\\.g\\.\\s+with ${envelope.credential} in another case[\\s\\S]*with ${envelope.credential} between spaces`),
      findings: 1,
      request: (request) =>
        withBody(request, (body) => {
          const key = body[envelope.credential];
          return typeof key === 'string' && key.trim().toLowerCase() === defaultApiKey.toLowerCase() ? { ...body, [envelope.credential]: defaultApiKey } : undefined;
        }),
    },
    ...bounded('maxLength')
      .slice(0, 1)
      .map(
        (field): OffContract => ({
          kind: `\`${field.name}\` longer than its maximum accepted (cut short)`,
          finding: new RegExp(`expected status ${errors.invalidParameter.status}, got ${successStatus}\\n\\s+e\\.g\\.\\s+\\S+ with ${field.name} longer than`),
          request: (request) =>
            withBody(request, (body) => {
              const value = body[field.name];
              const limit = limitOf(field.name, 'maxLength') ?? Number.POSITIVE_INFINITY;
              return typeof value === 'string' && value.length > limit ? { ...body, [field.name]: value.slice(0, limit) } : undefined;
            }),
        }),
      ),
    ...bounded('minimum')
      .filter((field) => field.name !== envelope.subject)
      .slice(0, 1)
      .map(
        (field): OffContract => ({
          kind: `\`${field.name}\` below its minimum accepted (raised to it)`,
          finding: new RegExp(`expected status ${errors.invalidParameter.status}, got \\d+\\n\\s+e\\.g\\.\\s+\\S+ with ${field.name} below`),
          request: (request) =>
            withBody(request, (body) => {
              const value = body[field.name];
              const limit = limitOf(field.name, 'minimum') ?? Number.NEGATIVE_INFINITY;
              return typeof value === 'number' && value < limit ? { ...body, [field.name]: limit } : undefined;
            }),
        }),
      ),
    // Refusals of what the contract allows: each must be caught, with the report leading with it.
    ...bounded('maxLength')
      .slice(0, 1)
      .map((field): OffContract => {
        const limit = limitOf(field.name, 'maxLength') ?? 0;
        const tighter = Math.floor(limit / 2);
        return {
          kind: `\`${field.name}\` bounded tighter than the contract (at most ${tighter} characters, not ${limit})`,
          finding: new RegExp(`^✖ \\d+ cases?: refused a request the contract allows: \`${field.name}\` within its bounds \\(${field.type}, at most ${limit} characters\\); answered ${errors.invalidParameter.status}\\n\\s+e\\.g\\.\\s+\\S+ with ${field.name} of ${limit} characters[\\s\\S]*allowed:\\s+${field.pointer} allows a string of ${limit} characters`),
          findings: 1,
          // Past its own bound, the value is sent on as one past the contract's, which the sandbox refuses naming the field.
          request: (request) =>
            withBody(request, (body) => {
              const value = body[field.name];
              return typeof value === 'string' && [...value].length > tighter && [...value].length <= limit ? { ...body, [field.name]: 'x'.repeat(limit + 1) } : undefined;
            }),
        };
      }),
    ...openEnds,
    ...optionalField
      .slice(0, 1)
      .map(
        ({ action, field }): OffContract => ({
          kind: `${action.identifier} without \`${field.name}\` refused, though the contract makes it optional`,
          finding: new RegExp(`^✖ \\d+ cases?: refused a request the contract allows: \`${field.name}\` is optional, and it was left out; answered ${errors.missingParameter.status}\\n\\s+e\\.g\\.\\s+${action.identifier} without ${field.name}`),
          findings: 1,
          answer: (answer, request) => {
            const body = parse(request.body);
            if (actionOf(request) !== action || body === undefined || field.name in body || answer.status >= 400) return answer;
            const { status, code } = errors.missingParameter;
            return { ...answer, status, body: JSON.stringify({ code, message: `Missing parameter(s): ${field.name}`, data: { [errors.statusMember]: status, [errors.paramsMember]: [field.name] } }) };
          },
        }),
      ),
    ...lastMove.map(({ from, to }): OffContract => {
      let store: SubscriptionStore | undefined;
      // A status the table does not let the subscription move to from there: the sandbox's own refusal, naming where it is.
      const refusedTarget = lifecycle.states.find((status) => status !== from && status !== to && !chosenAction?.moves.find((move) => move.from === from)?.to.includes(status)) ?? from;
      return {
        kind: `${chosenAction?.identifier} from ${from} to ${to} refused, a move of the lifecycle table`,
        finding: new RegExp(`^✖ (\\d+ cases?: )?refused a request the contract allows: the lifecycle table \\(#/x-transitions\\) accepts ${chosenAction?.identifier} to ${to} from ${from}; expected status ${successStatus}, got ${refused.status}`),
        store: (opened) => (store = opened),
        request: (request) =>
          withBody(request, (body) => {
            const current = store?.list().find((subscription) => subscription.id === body[envelope.subject])?.status;
            return body[envelope.selector] === chosenAction?.identifier && body[chosenAction?.field ?? ''] === to && current === from ? { ...body, [chosenAction?.field ?? '']: refusedTarget } : undefined;
          }),
      };
    }),
    ...enumValue.map((value): OffContract => ({
      kind: `\`${chosenAction?.field}\` "${value}" refused, a value of its enumeration`,
      finding: new RegExp(`^✖ (\\d+ cases?: )?refused a request the contract allows: \`${chosenAction?.field}\` "${value}" is a value its enumeration lists; answered ${errors.invalidParameter.status}`),
      findings: 1,
      // Sent on as a value the enumeration does not list: the sandbox's own refusal, naming the field.
      request: (request) => withBody(request, (body) => (body[chosenAction?.field ?? ''] === value ? { ...body, [chosenAction?.field ?? '']: `not-${value}` } : undefined)),
    })),
    {
      kind: `a body that is not JSON answered ${errors.internalError.status}`,
      finding: new RegExp(`expected status ${errors.invalidJson.status}, got ${errors.internalError.status}`),
      answer: (answer) =>
        isAnswer(answer, errors.invalidJson)
          ? { ...answer, status: errors.internalError.status, body: JSON.stringify({ code: errors.internalError.code, message: errors.internalError.message, data: { [errors.statusMember]: errors.internalError.status } }) }
          : answer,
    },
    {
      kind: `an unknown subscription answered ${errors.invalidParameter.status}`,
      finding: new RegExp(`expected status ${errors.subscriptionNotFound.status}, got ${errors.invalidParameter.status}`),
      answer: (answer) => (isAnswer(answer, errors.subscriptionNotFound) ? { ...answer, status: errors.invalidParameter.status } : answer),
    },
    {
      kind: `\`${errors.statusMember}\` in the details not the HTTP status`,
      finding: new RegExp(`\`${data(errors.statusMember)}\``),
      answer: (answer) => (isAnswer(answer, errors.subscriptionNotFound) ? rewriteData(answer, (details) => (details[errors.statusMember] = errors.invalidParameter.status)) : answer),
    },
    {
      kind: 'the success body sent as text/html',
      finding: /Content-Type is "text\/html/,
      answer: (answer) => (answer.status === successStatus ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/html; charset=UTF-8' } } : answer),
    },
    {
      kind: `another method answered 405 instead of ${errors.noRoute.status}`,
      finding: new RegExp(`expected status ${errors.noRoute.status}, got 405`),
      answer: (answer, request) => (request.method !== model.endpoint.method && isAnswer(answer, errors.noRoute) ? { ...answer, status: 405 } : answer),
    },
  ];
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export interface ServedDeployment {
  url: string;
  apiKey: string;
  subscriptions: number[];
  close(): Promise<void>;
}

/** Serves the sandbox broken as `breakage` says, on a port the system picks, with a subscription for every case (or the seed given). */
export async function serveOffContract(
  contract: ExecutableContract,
  breakage: Pick<OffContract, 'request' | 'answer' | 'store'>,
  seed: readonly Subscription[] = conformanceSeed(contract),
): Promise<ServedDeployment> {
  const opened = openStore(':memory:', contract.model.lifecycle.states);
  const store = breakage.store?.(opened) ?? opened;
  store.addMissing(seed);
  const settings = { apiKey: defaultApiKey, basePath: '' };
  const server = createServer((incoming, outgoing) => {
    readBody(incoming).then(
      (body) => {
        const original: SandboxRequest = { method: incoming.method ?? '', target: incoming.url ?? '', headers: incoming.headers, body, tooLarge: false };
        const request = breakage.request?.(original) ?? original;
        const answered = answerRequest(contract, store, settings, request);
        const answer = breakage.answer?.(answered, request) ?? answered;
        outgoing.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) }).end(answer.body);
      },
      () => outgoing.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: defaultApiKey,
    subscriptions: seed.map((subscription) => subscription.id),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          opened.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
