/**
 * What the PHPUnit tests of the generated PHP library (tests/php-client/ClientTest.php) call and
 * expect, derived from the model, with the subscriptions a site must hold for it: the PHP file
 * types no fact of the API, so it reads every one from this plan.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { camelCaseName } from '../../src/lib/samples/client-libraries.ts';
import { methodFields, methodName } from '../../src/clients/php/client-class.ts';
import { documentedErrors, exceptionClassName } from '../../src/clients/php/exception-classes.ts';
import type { Action } from '../../src/lib/contract/model.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { allowedActions, outcomeOf } from '../../src/lib/contract/lifecycle.ts';
import { retryAfterDelay } from '../../src/lib/http/retry-after.ts';
import { retryPolicy } from '../../src/lib/samples/retry-policy.ts';
import { attemptReportMembers } from '../../src/clients/shared/attempt-report.ts';
import { refusalCase, startingPoint, subscriptionSeed } from './client-cases.ts';
import { projectDirectory } from './contract-copy.ts';

export interface CallCase {
  identifier: string;
  method: string;
  /** The method's one argument: the action's fields by the contract's names. */
  fields: Record<string, unknown>;
  from: string;
  to: string;
}

/** The plan, and the subscriptions (from `firstId` on) the site must hold before the tests run. */
export function phpClientPlan(contract: ExecutableContract, site: { siteUrl: string; apiKey: string }, firstId = 5000) {
  const { model } = contract;
  const { envelope } = model;
  const { seeded: seed, place } = subscriptionSeed(firstId);
  /** The id the next subscription placed would have: ids past it are held by none. */
  const nextId = () => firstId + seed.length;
  const callOf = (action: Action, id: number): CallCase => {
    const point = startingPoint(model, action);
    const outcome = outcomeOf(action.transition, point.from, point.requested);
    const fields = Object.fromEntries(
      methodFields(contract, action)
        .filter((field) => field.required)
        .map((field) => [field.name, field.name === envelope.subject ? id : action.requestExample.value[field.name]]),
    );
    return { identifier: action.identifier, method: methodName(action), fields, from: point.from, to: outcome.kind === 'changed' ? outcome.to : point.from };
  };
  const caseFor = (action: Action): CallCase => callOf(action, place(startingPoint(model, action).from));

  const fixed = model.actions.find((action) => action.transition.kind === 'fixed');
  if (fixed === undefined) throw new Error('the contract has no action with a fixed target');
  const { action: refused, status: refusedStatus } = refusalCase(model);
  const conflictId = place(refusedStatus);
  const subjectField = fixed.fields.find((field) => field.name === envelope.subject);
  const minimum = subjectField?.constraints.find((constraint) => constraint.keyword === 'minimum');
  if (minimum?.limit === undefined) throw new Error(`${envelope.subject} has no minimum to go below`);
  const { errors } = contract;
  const unknownField = 'field_no_release_has';
  const now = Date.UTC(2026, 10, 20, 14, 0, 0);
  const retryAfterValues = ['1', ' 120 ', '0', '-1', 'now', '1.5', '', 'soon', 'Fri, 20 Nov 2026 14:05:00 GMT', 'Fri, 20 Nov 2026 13:05:00 GMT', 'Thu, 20 Nov 2026 14:05:00 GMT', 'Sun, 31 Feb 2026 14:05:00 GMT', 'Friday, 20-Nov-26 14:05:00 GMT', 'Fri Nov 20 14:05:00 2026', 'Fri, 20 Nov 2026 14:05:00 UTC'];

  // An action with a required field of listed values, and a field with a longest length, for the messages' tests.
  const listed = model.actions
    .flatMap((action) => methodFields(contract, action).filter((field) => field.required).map((field) => ({ action, field, values: field.constraints.find((constraint) => constraint.keyword === 'enum')?.values })))
    .find((candidate) => candidate.values !== undefined);
  if (listed?.values === undefined) throw new Error('no action has a required field of listed values');
  const bounded = methodFields(contract, fixed).find((field) => field.constraints.some((constraint) => constraint.keyword === 'maxLength'));
  const longest = bounded?.constraints.find((constraint) => constraint.keyword === 'maxLength')?.limit;
  if (bounded === undefined || longest === undefined) throw new Error(`${fixed.identifier} has no field with a longest length`);

  const plan = {
    siteUrl: site.siteUrl,
    apiKey: site.apiKey,
    wrongKey: 'wrong-key-not-a-secret-7f3a',
    actions: model.actions.map(caseFor),
    repeat: caseFor(fixed),
    throttled: caseFor(fixed),
    viaWordPress: caseFor(fixed),
    conflict: {
      ...callOf(refused, conflictId),
      status: String(errors.transitionNotAllowed.status),
      code: errors.transitionNotAllowed.code,
      currentStatus: refusedStatus,
      allowedActions: allowedActions(model.lifecycle, refusedStatus),
    },
    badRequest: {
      identifier: fixed.identifier,
      method: methodName(fixed),
      fields: { [envelope.subject]: place(startingPoint(model, fixed).from), [unknownField]: 1 },
      status: String(errors.invalidParameter.status),
      code: errors.invalidParameter.code,
      field: unknownField,
    },
    unauthorized: { ...caseFor(fixed), status: String(errors.invalidKey.status), code: errors.invalidKey.code },
    notFound: { ...callOf(fixed, nextId() + 100_000), status: String(errors.subscriptionNotFound.status), code: errors.subscriptionNotFound.code },
    outOfBound: { ...callOf(fixed, minimum.limit - 1), field: envelope.subject, bound: minimum.label },
    missingListed: {
      identifier: listed.action.identifier,
      method: methodName(listed.action),
      fields: { [envelope.subject]: nextId() + 200_000 },
      field: listed.field.name,
      values: listed.values,
    },
    tooLong: { ...callOf(fixed, nextId() + 300_000), field: bounded.name, longest },
    methods: model.actions.map((action) => methodName(action)),
    attemptMembers: attemptReportMembers,
    maxAttempts: retryPolicy.maxAttempts,
    result: contract.result,
    resultProperties: Object.fromEntries(model.resultFields.map((field) => [field.name, camelCaseName(field.name)])),
    exceptionClasses: Object.fromEntries([...documentedErrors(contract), contract.throttled].map((response) => [response.status, exceptionClassName(response.status)])),
    throttledStatus: contract.throttled.status,
    retryAfterCases: retryAfterValues.map((value) => {
      const delay = retryAfterDelay(value, now);
      return { value, now: now / 1000, seconds: delay === undefined ? null : delay / 1000 };
    }),
  };
  return { plan, seed };
}

export type PhpClientPlan = ReturnType<typeof phpClientPlan>['plan'];

/** Whether PHP, PHPUnit and Composer are here, or why not. */
export function phpToolsMissing(): string | undefined {
  const missing = ['php', 'phpunit', 'composer'].filter((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status !== 0);
  // The tests run with opcache on, as production does: its optimiser is what a key left in a variable must survive.
  if (!missing.includes('php') && spawnSync('php', ['-r', 'exit(function_exists("opcache_get_status") ? 0 : 1);'], { stdio: 'ignore' }).status !== 0) missing.push('opcache');
  return missing.length === 0 ? undefined : `${missing.join(', ')} not installed here (apt-get install -y php-cli php-curl php-opcache phpunit composer)`;
}

/** Whether Debian's PHP_CodeSniffer is here, or why not. */
export function phpcsMissing(): string | undefined {
  return spawnSync('phpcs', ['--version'], { stdio: 'ignore' }).status === 0 ? undefined : 'phpcs is not installed here (apt-get install -y php-codesniffer)';
}

/** PHP_CodeSniffer's PSR-12 errors in a folder, one line each (file:line: message); warnings, such as a long line, are left out. */
export function psr12Errors(folder: string): string[] {
  const run = spawnSync('phpcs', ['--standard=PSR12', '--report=json', '--warning-severity=0', '--extensions=php', folder], { encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1 && run.status !== 2) throw new Error(`phpcs failed:\n${run.stdout}${run.stderr}`);
  const report = JSON.parse(run.stdout) as { files: Record<string, { messages: { line: number; message: string; type: string }[] }> };
  return Object.entries(report.files).flatMap(([file, { messages }]) => messages.filter((message) => message.type === 'ERROR').map((message) => `${path.relative(folder, file)}:${message.line}: ${message.message}`));
}

export { installPackage, unpackZip } from '../../src/clients/php/composer-project.ts';

/** The PHPUnit test file, and a run of one of its tests with the plan and extra environment. */
export const phpUnitTestFile = path.join(projectDirectory, 'tests/php-client/ClientTest.php');

/** Runs in a child process without blocking this one, where a sandbox the tests call may be serving. */
export function runPhpUnit(project: string, planFile: string, testName: string, env: Record<string, string> = {}): Promise<{ status: number | null; output: string }> {
  // Arguments kept in traces, whole, whatever php.ini says (Debian's leaves them out): the tests look for the key there.
  // Opcache on, as in production: its optimiser removes a store to a variable nothing reads again.
  const phpunit = spawnSync('sh', ['-c', 'command -v phpunit'], { encoding: 'utf8' }).stdout.trim();
  const args = ['-d', 'zend.exception_ignore_args=0', '-d', 'zend.exception_string_param_max_len=1000', '-d', 'opcache.enable_cli=1', '-d', 'error_reporting=-1', phpunit, '--do-not-cache-result', '--bootstrap', path.join(project, 'vendor/autoload.php'), '--filter', `/::${testName}$/`, phpUnitTestFile];
  return new Promise((resolve) => {
    const child = spawn('php', args, { env: { ...process.env, PLAN_FILE: planFile, ...env }, timeout: 60_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}
