import type { ExecutableContract } from '../lib/executable-contract.ts';
import type { TransitionOutcome } from '../lib/lifecycle.ts';
import type { CaseResult, CaseStatus, ConformanceReport } from './runner.ts';
import { describeRequest } from './runner.ts';

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
    const key = `${result.case.group}: ${expected?.status ?? '?'}${expected?.code === undefined ? '' : ` ${expected.code}`}`;
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

/** Every mismatch, naming the request, what the document expects and what came back. */
export function mismatchDetails(report: ConformanceReport, apiKey: string): string[] {
  return report.results
    .filter((result) => result.status === 'failed')
    .flatMap((result) => {
      const answer = result.exchange?.answer;
      const got = answer === undefined ? (result.exchange?.failure ?? 'no answer') : `${answer.status} ${answer.body.length > 400 ? `${answer.body.slice(0, 400)}…` : answer.body}`;
      return [
        `✖ ${result.case.name}${result.subscriptionId === undefined ? '' : ` (subscription ${result.subscriptionId})`}`,
        ...(result.exchange === undefined ? [] : [`    request:  ${describeRequest(result.exchange, apiKey)}`]),
        `    expected: ${JSON.stringify(result.expected)}`,
        `    got:      ${got}`,
        ...result.problems.map((problem) => `    - ${problem}`),
      ];
    });
}

export function summaryLine(report: ConformanceReport): string {
  const count = (status: CaseStatus) => report.results.filter((result) => result.status === status).length;
  const failed = count('failed');
  const verdict = report.fatal.length > 0 || failed > 0 ? '✖ The deployment does not answer as the document says' : '✔ The deployment answers as the document says';
  return `${verdict}: ${count('passed')} passed, ${failed} failed, ${count('skipped')} not reached (${report.requestCount} requests, ${report.setupRequests} of them to place subscriptions; ${(report.durationMs / 1000).toFixed(1)} s).`;
}

function xml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
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
      if (result.status === 'passed') return `${open}</testcase>`;
      if (result.status === 'skipped') return `${open}\n      <skipped message="${xml(result.reason ?? '')}"/>\n    </testcase>`;
      const details = mismatchDetails({ ...report, results: [result] }, apiKey).join('\n');
      return `${open}\n      <failure message="${xml(result.problems[0] ?? 'mismatch')}" type="mismatch">${xml(details)}</failure>\n    </testcase>`;
    });
    return `  <testsuite name="conformance.${xml(group)}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${testCases.join('\n')}\n  </testsuite>`;
  });
  if (report.fatal.length > 0) {
    suites.unshift(
      `  <testsuite name="conformance.setup" tests="1" failures="0" errors="1" skipped="0">\n    <testcase classname="conformance.setup" name="place the named subscriptions" time="0">\n      <error message="${xml(report.fatal[0] ?? '')}">${xml(report.fatal.join('\n'))}</error>\n    </testcase>\n  </testsuite>`,
    );
  }
  const total = report.results.length + (report.fatal.length > 0 ? 1 : 0);
  const failures = report.results.filter((result) => result.status === 'failed').length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance ${xml(report.baseUrl)}" tests="${total}" failures="${failures}" errors="${report.fatal.length > 0 ? 1 : 0}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** Which statuses the run lacked a subscription in, and for how many cases each. */
export function notReachedHint(report: ConformanceReport): string | undefined {
  const wanted = new Map<string, number>();
  for (const result of report.results) {
    if (result.status === 'skipped' && result.case.needs.kind === 'status') {
      wanted.set(result.case.needs.status, (wanted.get(result.case.needs.status) ?? 0) + 1);
    }
  }
  if (wanted.size === 0) return undefined;
  const list = [...wanted].map(([status, count]) => `${status} (${count} ${count === 1 ? 'case' : 'cases'})`).join(', ');
  return `Not reached for want of a named subscription in these statuses, which the moves cannot lead to from the others: ${list}. Name more subscriptions with --subscription to cover them.`;
}
