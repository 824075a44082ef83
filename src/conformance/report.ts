import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { TransitionOutcome } from '../lib/contract/lifecycle.ts';
import type { CaseResult, CaseStatus, ConformanceReport } from './results.ts';
import { hasMismatch, isUnreached } from './results.ts';
import { answerBodyText, describeRequest, hideKey } from './shown-text.ts';
import { escapeMarkup } from '../lib/http/escape-markup.ts';

const marks: Record<CaseStatus, string> = { passed: '✔', failed: '✖', skipped: '–' };
const outcomeWords: Record<TransitionOutcome['kind'], string> = { changed: 'chg', unchanged: 'same', refused: '' };

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - [...text].length));
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((cell, column) => Math.max([...cell].length, ...rows.map((row) => [...(row[column] ?? '')].length)));
  const line = (cells: string[]) => cells.map((cell, column) => pad(cell, widths[column] ?? 0)).join('  ').trimEnd();
  return [line(header), widths.map((width) => '─'.repeat(width)).join('  '), ...rows.map(line)];
}

/** One cell: the outcome the document expects and whether it came back so, or a count when a cell holds several cases. */
function cell(contract: ExecutableContract, results: CaseResult[]): string {
  if (results.length === 0) return '';
  const [only] = results;
  if (results.length === 1 && only !== undefined) {
    const word = only.case.outcome === 'refused' ? String(contract.errors.transitionNotAllowed.status) : outcomeWords[only.case.outcome ?? 'changed'];
    return `${word} ${marks[only.status]}`;
  }
  return countsCell(results);
}

/** How many cases passed, failed and were not reached: `7✔ 1✖`. */
function countsCell(results: CaseResult[]): string {
  const counts = (['passed', 'failed', 'skipped'] as const)
    .map((status) => [status, results.filter((result) => result.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count}${marks[status]}`);
  return counts.join(' ');
}

/** The coverage matrix (action × status × outcome), the moves of the chosen transition, and the other cases by kind. */
export function coverageMatrix(contract: ExecutableContract, report: ConformanceReport): string[] {
  const { states } = contract.model.lifecycle;
  const lifecycle = report.results.filter((result) => result.case.group === 'lifecycle');
  const lines: string[] = [];
  const refused = contract.errors.transitionNotAllowed.status;
  lines.push(`Coverage: each action sent to a subscription in each status (chg: changed, same: changed false, ${refused}: refused; ${marks.passed} as the document says, ${marks.failed} not, ${marks.skipped} not reached)`);
  lines.push(
    ...table(
      ['action', ...states],
      contract.model.actions.map((action) => [
        action.identifier,
        ...states.map((state) => cell(contract, lifecycle.filter((result) => result.case.action === action.identifier && result.case.fromStatus === state))),
      ]),
    ),
  );
  for (const action of contract.model.actions) {
    if (action.transition.kind !== 'chosen') continue;
    lines.push('', `${action.identifier}: rows the status it was sent to, columns the \`${action.transition.field}\` requested`);
    lines.push(
      ...table(
        ['from \\ to', ...states],
        states.map((from) => [
          from,
          ...states.map((to) =>
            cell(contract, lifecycle.filter((result) => result.case.action === action.identifier && result.case.fromStatus === from && result.case.requestedStatus === to)),
          ),
        ]),
      ),
    );
  }
  const others = report.results.filter((result) => result.case.group !== 'lifecycle');
  const byAnswer = new Map<string, CaseResult[]>();
  for (const result of others) {
    const expected = result.expected;
    // The generated pass is one row whatever its smallest body's answer would have been.
    const key = result.case.group === 'generated' ? 'generated: valid bodies' : `${result.case.group}: ${expected?.status ?? '?'}${expected?.code === undefined ? '' : ` ${expected.code}`}`;
    byAnswer.set(key, [...(byAnswer.get(key) ?? []), result]);
  }
  lines.push('', 'Other cases, by the answer the document gives');
  lines.push(...table(['kind: expected answer', 'cases', 'result'], [...byAnswer].map(([key, results]) => [key, String(results.length), countsCell(results)])));
  const expectedCodes = new Set(report.results.map((result) => result.expected?.code));
  const unprovoked = contract.model.responses.flatMap((response) =>
    response.errorCodes.filter((error) => !expectedCodes.has(error.code)).map((error) => `${response.status} ${error.code}`),
  );
  if (unprovoked.length > 0) lines.push(`Documented but not provoked, since no request a client sends can cause it: ${unprovoked.join(', ')}.`);
  return lines;
}

/** One kind of finding: the sentence, and every case it was found in. */
interface FindingGroup {
  text: string;
  results: CaseResult[];
}

function groupFindings(results: readonly CaseResult[], findingsOf: (result: CaseResult) => readonly string[]): FindingGroup[] {
  const groups = new Map<string, CaseResult[]>();
  for (const result of results) {
    for (const text of new Set(findingsOf(result))) groups.set(text, [...(groups.get(text) ?? []), result]);
  }
  return [...groups].map(([text, grouped]) => ({ text, results: grouped })).sort((left, right) => right.results.length - left.results.length);
}

function caseLabel(result: CaseResult): string {
  return `${result.case.name}${result.subscriptionId === undefined ? '' : ` (subscription ${result.subscriptionId})`}`;
}

/** What came back, as printed: the key hidden, an HTML page as its title and first text. */
function answerText(result: CaseResult, apiKey: string): string {
  const answer = result.exchange?.answer;
  if (answer === undefined) return hideKey(result.exchange?.failure ?? 'no answer', apiKey);
  return `${answer.status} ${answerBodyText(answer.body, apiKey, 400)}`;
}

/** The first example of a kind in full: the request, what the document expects (in the wire's names), what came back. */
function example(result: CaseResult, apiKey: string, withExpectation: boolean): string[] {
  return [
    `    e.g.      ${caseLabel(result)}`,
    ...(result.exchange === undefined ? [] : [`    request:  ${describeRequest(result.exchange, apiKey)}`]),
    ...(withExpectation && result.expectedText !== undefined ? [`    expected: ${result.expectedText}`] : []),
    `    got:      ${answerText(result, apiKey)}`,
    ...(result.allowedBy === undefined ? [] : [`    allowed:  ${result.allowedBy}`]),
  ];
}

/** The cases a refusal accepted by the deployment disturbed by changing their subscription, counted under it. */
function knockOnLine(group: FindingGroup, report: ConformanceReport): string[] {
  const answered = group.results.filter((result) => result.knockOnOf !== undefined).length;
  const unreached = report.results.filter((result) => result.status === 'skipped' && result.knockOnOf !== undefined && group.results.includes(result.knockOnOf)).length;
  if (answered + unreached === 0) return [];
  const parts = [
    ...(answered === 0 ? [] : [`${countWord(answered)} here ${answered === 1 ? 'was' : 'were'} answered for the status it left the subscription in`]),
    ...(unreached === 0 ? [] : [`${countWord(unreached)} of the lifecycle ${unreached === 1 ? 'was' : 'were'} not reached for it`]),
  ];
  return [`    changed:  the deployment accepted a request the document refuses, and it changed the subscription: ${parts.join('; ')}`];
}

/** What follows from a fault, counted under it rather than listed beside it. */
function followingLine(group: FindingGroup): string[] {
  const following = new Set(group.results.flatMap((result) => (result.problems[0] === group.text ? (result.following ?? []) : [])));
  if (following.size === 0) return [];
  const [first] = group.results;
  const answered = first?.exchange?.answer?.status;
  const source = /^(expected status |refused a request the contract allows)/.test(group.text) && answered !== undefined ? `the document's checks of the ${answered} answered instead` : 'the document\'s checks of the same members';
  return [`    follows:  ${following.size} more ${following.size === 1 ? 'mismatch' : 'mismatches'} of ${source}, not listed, as ${following.size === 1 ? 'it follows' : 'they follow'} from this one`];
}

function otherCases(group: FindingGroup): string[] {
  if (group.results.length === 1) return [];
  const shown = 4;
  const names = group.results.slice(1, shown + 1).map(caseLabel);
  const more = group.results.length - 1 - names.length;
  return [`    also:     ${names.join('; ')}${more > 0 ? `; and ${more} more` : ''}`];
}

function countWord(count: number): string {
  return `${count} ${count === 1 ? 'case' : 'cases'}`;
}

/** The generated pass: how many valid bodies were sent, from which seed, and the smallest refused in full. */
export function generatedDetails(report: ConformanceReport, apiKey: string): string[] {
  const pass = report.generated;
  if (pass === undefined) return [];
  const replay = `--seed ${pass.seed} --generated ${pass.runs}`;
  if (pass.runs === 0) return ['Generated valid bodies: none sent (--generated 0).'];
  const smallest = pass.smallest;
  if (smallest !== undefined) {
    return [
      `✖ Generated valid bodies: ${pass.sent} sent (seed ${pass.seed}), and the last was refused; shrinking it took ${pass.shrinkRequests} more ${pass.shrinkRequests === 1 ? 'request' : 'requests'}, and this is the smallest body still refused:`,
      ...(smallest.exchange === undefined ? [] : [`    request:  ${describeRequest(smallest.exchange, apiKey)}`]),
      `    got:      ${answerText(smallest, apiKey)}`,
      ...(smallest.allowedBy === undefined ? [] : [`    allowed:  ${smallest.allowedBy}`]),
      `    replay:   ${replay} (with the same subscriptions, in the same statuses)`,
    ];
  }
  const actions = `${pass.actions.length} ${pass.actions.length === 1 ? 'action' : 'actions'}`;
  if (pass.stopped !== undefined) return [`Generated valid bodies: ${pass.sent} sent for ${actions} (seed ${pass.seed}); the pass stopped: ${pass.stopped}.`];
  return [`Generated valid bodies: ${pass.sent} sent for ${actions} (seed ${pass.seed}; ${replay} sends them again), none refused.`];
}

/** Every kind of mismatch once, with how many cases it was found in and the first example in full. */
export function mismatchDetails(report: ConformanceReport, apiKey: string): string[] {
  // A move of the set-up refused is counted with the lifecycle case of that move, and shown first when it came first.
  const failed = [...report.setupFindings, ...report.results.filter((result) => result.status === 'failed')];
  return groupFindings(failed, (result) => result.problems).flatMap((group) => {
    const [first] = group.results;
    return [`✖ ${countWord(group.results.length)}: ${hideKey(group.text, apiKey)}`, ...(first === undefined ? [] : example(first, apiKey, true)), ...followingLine(group), ...knockOnLine(group, report), ...otherCases(group)];
  });
}

/**
 * Every kind of note once: members the document does not name, which a client must tolerate and
 * the suite does too. Worth a maintainer's look (a misspelt member shows up here, with the named
 * one then missing as a mismatch), never a failure.
 */
export function noteDetails(report: ConformanceReport, apiKey: string): string[] {
  return groupFindings(report.results, (result) => result.notes).flatMap((group) => {
    // The example is a case that ran and was judged, never one skipped as not applicable.
    const first = group.results.find((result) => result.status !== 'skipped');
    return [`ℹ ${countWord(group.results.length)}: ${hideKey(group.text, apiKey)}`, ...(first === undefined ? [] : example(first, apiKey, false))];
  });
}

export function summaryLine(report: ConformanceReport): string {
  const count = (status: CaseStatus) => report.results.filter((result) => result.status === status).length;
  const failed = count('failed');
  const unreached = report.results.filter(isUnreached).length;
  const notApplicable = count('skipped') - unreached;
  const noted = report.results.filter((result) => result.notes.length > 0).length;
  const verdict =
    report.setup !== undefined
      ? '✖ The run could not start'
      : hasMismatch(report)
        ? '✖ The deployment does not answer as the document says'
        : unreached > 0
          ? '✔ The cases reached answer as the document says, but not every case was reached'
          : '✔ The deployment answers as the document says';
  const parts = [
    `${count('passed')} passed`,
    `${failed} failed`,
    `${unreached} not reached`,
    ...(notApplicable > 0 ? [`${notApplicable} not applicable (host imitation)`] : []),
    ...(noted > 0 ? [`${noted} with notes`] : []),
  ];
  const requests = (count: number) => `${count} ${count === 1 ? 'request' : 'requests'}`;
  const seconds = `${(report.durationMs / 1000).toFixed(1)} s`;
  // Before the cases, the requests only read where the named subscriptions stand; none is moved, and no case ran.
  if (report.setup !== undefined) {
    const cause = report.setup.kind === 'off-document-at-setup' ? 'the set-up met an answer off the document; ' : '';
    return `${verdict}: ${cause}none of the ${report.results.length} cases was run (${requests(report.requestCount)}, before any case, none of them changing a subscription; ${seconds}).`;
  }
  return `${verdict}: ${parts.join(', ')} (${requests(report.requestCount)}, ${report.setupRequests} of them to place subscriptions; ${seconds}).`;
}

/** The full mismatch of one case, for its JUnit failure. */
function caseDetails(result: CaseResult, apiKey: string): string {
  const knockOn = result.knockOnOf === undefined ? [] : [`    - answered for the status "${result.knockOnOf.case.name}" left the subscription in: the deployment accepted that request, which the document refuses`];
  return [`✖ ${caseLabel(result)}`, ...example(result, apiKey, true).slice(1), ...result.problems.map((problem) => `    - ${hideKey(problem, apiKey)}`), ...knockOn].join('\n');
}

function xml(text: string): string {
  return escapeMarkup(text)
    // XML 1.0 has no way to carry most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '\uFFFD');
}

/** The report in the JUnit XML format CI servers read: one suite per kind of case, one test case each. */
export function junitXml(report: ConformanceReport, apiKey: string): string {
  const groups = new Map<string, CaseResult[]>();
  for (const result of report.results) groups.set(result.case.group, [...(groups.get(result.case.group) ?? []), result]);
  const suites = [...groups].map(([group, results]) => {
    const failures = results.filter((result) => result.status === 'failed').length;
    const skipped = results.filter((result) => result.status === 'skipped').length;
    const testCases = results.map((result) => {
      const className = `conformance.${group}${result.case.action === undefined ? '' : `.${result.case.action}`}`;
      const open = `    <testcase classname="${xml(className)}" name="${xml(result.case.name)}" time="0">`;
      if (result.status === 'passed') {
        return result.notes.length === 0 ? `${open}</testcase>` : `${open}\n      <system-out>${xml(hideKey(result.notes.join('\n'), apiKey))}</system-out>\n    </testcase>`;
      }
      if (result.status === 'skipped') return `${open}\n      <skipped message="${xml(result.reason ?? '')}"/>\n    </testcase>`;
      const details = caseDetails(result, apiKey);
      return `${open}\n      <failure message="${xml(hideKey(result.problems[0] ?? 'mismatch', apiKey))}" type="mismatch">${xml(details)}</failure>\n    </testcase>`;
    });
    return `  <testsuite name="conformance.${xml(group)}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${testCases.join('\n')}\n  </testsuite>`;
  });
  const setupErrors = [...(report.setup === undefined ? [] : [report.setup.message]), ...report.fatal, ...report.setupFindings.map((result) => `${result.problems[0] ?? ''} (${caseLabel(result)})`)];
  if (setupErrors.length > 0) {
    suites.unshift(
      `  <testsuite name="conformance.setup" tests="1" failures="0" errors="1" skipped="0">\n    <testcase classname="conformance.setup" name="place the named subscriptions" time="0">\n      <error message="${xml(hideKey(setupErrors[0] ?? '', apiKey))}">${xml(hideKey(setupErrors.join('\n'), apiKey))}</error>\n    </testcase>\n  </testsuite>`,
    );
  }
  const total = report.results.length + (setupErrors.length > 0 ? 1 : 0);
  const failures = report.results.filter((result) => result.status === 'failed').length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance ${xml(report.baseUrl)}" tests="${total}" failures="${failures}" errors="${setupErrors.length > 0 ? 1 : 0}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** Which statuses the run lacked a subscription in, and for how many cases each. */
export function notReachedHint(report: ConformanceReport): string | undefined {
  // A set-up that stopped the run is the cause, never the number of named subscriptions.
  if (report.setup !== undefined) return undefined;
  const wanted = new Map<string, number>();
  for (const result of report.results) {
    // Not for want of a subscription: a refusal the deployment accepted moved one (its finding says so).
    if (isUnreached(result) && result.case.needs.kind === 'status' && result.knockOnOf === undefined) {
      wanted.set(result.case.needs.status, (wanted.get(result.case.needs.status) ?? 0) + 1);
    }
  }
  if (wanted.size === 0) return undefined;
  if (report.setupFindings.length > 0) {
    const count = [...wanted.values()].reduce((sum, cases) => sum + cases, 0);
    return `${count} ${count === 1 ? 'case was' : 'cases were'} not reached because the deployment refused a move of the lifecycle table that the set-up needed to place a subscription (the finding above); naming more subscriptions would not help.`;
  }
  const list = [...wanted].map(([status, count]) => `${status} (${count} ${count === 1 ? 'case' : 'cases'})`).join(', ');
  const toAdd = [...(report.forecast?.toAdd ?? [])];
  const total = toAdd.reduce((sum, [, count]) => sum + count, 0);
  const advice =
    total === 0
      ? 'Name more subscriptions in these statuses with --subscription to cover them.'
      : `To reach every case, name ${total} more ${total === 1 ? 'subscription' : 'subscriptions'} with --subscription: ${toAdd.map(([status, count]) => `${count} more ${status}`).join(', ')}.`;
  return `Not reached for want of a named subscription in these statuses (the moves cannot lead there from the others, or only by using up the last named subscription of a status group, which the suite keeps for the next run): ${list}. ${advice}`;
}
