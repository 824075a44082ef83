/**
 * The conformance command, as `npm run conformance` and the published package's `conformance` run it:
 *
 *   --base-url URL --api-key KEY --subscription ID [--subscription ID ...] [--junit FILE] [--allow-unreached]
 *     [--max-retry-after SECONDS] [--generated N] [--seed N] [--verbose]
 *   [--junit FILE]                           (against a sandbox of its own)
 *
 * `--base-url` is the site's base URL: its origin, with the path of a subdirectory install. Only the
 * named subscriptions are changed; `--subscription` also takes a range (`1-30`) or a list (`4,7,9`).
 * Exit codes: `src/conformance/exit-codes.ts`, which the usage text and the package's README print.
 * Codes 3 to 6 are found before a single case is judged.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultMaxRetryAfterSeconds } from '../conformance/client.ts';
import { exitCodeList, exitCodeOf, exitCodes } from '../conformance/exit-codes.ts';
import { startOwnSandbox } from '../conformance/own-sandbox.ts';
import { coverageMatrix, generatedDetails, junitXml, mismatchDetails, noteDetails, notReachedHint, summaryLine } from '../conformance/report.ts';
import { defaultGeneratedRuns, forecastLine, runConformance } from '../conformance/runner.ts';
import { throttleHeader } from '../sandbox/host.ts';
import type { Sandbox } from '../sandbox/server.ts';
import type { CommandContext } from './command.ts';
import { ContractUnavailable } from './contract-source.ts';

export const conformanceOptionsSynopsis =
  '--base-url URL --api-key KEY --subscription ID [--subscription ID ...] [--junit FILE] [--allow-unreached] [--max-retry-after SECONDS] [--generated N] [--seed N] [--verbose]';
const defaultJunit = 'conformance-report.xml';
const exitCodeSummary = `Exit codes:\n${exitCodeList()
  .map(({ code, meaning }) => `  ${code}  ${meaning}`)
  .join('\n')}`;

/** The most bodies `--generated` sends, and the largest seed (fast-check's seeds are 32-bit). */
export const maxGeneratedRuns = 100_000;
const maxSeed = 0xffffffff;

/** The most IDs one `--subscription` range may name. */
export const maxSubscriptionRange = 10_000;

/** What each option does, for --help and the package's README. */
export const conformanceOptionHelp: readonly { option: string; text: string }[] = [
  { option: '--base-url URL', text: 'the site: its origin, with the path of a subdirectory install (no user, query or fragment); without it, the suite starts a sandbox of its own' },
  { option: '--api-key KEY', text: 'the key in the plugin\'s settings on that site (never printed)' },
  { option: '--subscription ID', text: `a subscription the suite may change; also a range (101-130, at most ${maxSubscriptionRange.toLocaleString('en-US')} IDs) or a list (4,7,9); repeat it for more` },
  { option: '--junit FILE', text: `the JUnit XML report, every case in it (${defaultJunit} unless told); checked before the run` },
  { option: '--allow-unreached', text: `exit ${exitCodes.passed} rather than ${exitCodes.unreached} when some cases could not be reached with the named subscriptions` },
  { option: '--max-retry-after SECONDS', text: `the longest Retry-After of a throttling host the suite waits out (${defaultMaxRetryAfterSeconds} unless told)` },
  { option: '--generated N', text: `how many valid bodies generated from the request schemas to send, each where it changes no subscription (${defaultGeneratedRuns} unless told; 0 for none)` },
  { option: '--seed N', text: 'the seed of those bodies, as the report prints it, to send the same ones again (a new one each run unless told)' },
  { option: '--verbose', text: 'print every case as it runs, passed ones too (by default only those that failed or did not apply)' },
];

/**
 * Why the JUnit report could not be written at `file`, asked before the run so that a wrong path
 * never costs a whole run: a directory, a folder that does not exist, or one that is not writable.
 */
export function junitPathProblem(file: string): string | undefined {
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing?.isDirectory() === true) return `${file} is a directory; --junit takes a file name such as ${path.join(file, defaultJunit)}`;
  const folder = path.dirname(file);
  const parent = statSync(folder, { throwIfNoEntry: false });
  if (parent === undefined) return `the folder ${folder} does not exist`;
  if (!parent.isDirectory()) return `${folder} is not a folder`;
  try {
    accessSync(existing === undefined ? folder : file, constants.W_OK);
  } catch {
    return `${existing === undefined ? `the folder ${folder}` : file} is not writable`;
  }
  return undefined;
}

/**
 * What is wrong with a `--base-url`, if anything: not http(s), or a part the suite cannot put
 * before the endpoint's path. Credentials are named but never echoed.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    return `--base-url must be an http or https URL such as https://shop.example, not "${baseUrl}".`;
  }
  if (!/^https?:$/.test(parsed.protocol)) return `--base-url must be an http or https URL such as https://shop.example, not "${baseUrl}".`;
  if (parsed.username !== '' || parsed.password !== '') {
    return '--base-url must not hold a user name or password (user:password@): the endpoint is opened by the API key in the body, and fetch refuses such URLs.';
  }
  const site = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  if (parsed.search !== '' || baseUrl.includes('?')) return `--base-url must not hold a query (?…): the endpoint's path goes after the base URL. Use ${site}`;
  if (parsed.hash !== '' || baseUrl.includes('#')) return `--base-url must not hold a fragment (#…): the endpoint's path goes after the base URL. Use ${site}`;
  return undefined;
}

/**
 * `--subscription` values: an ID, a range `first-last`, or several of them separated by commas.
 * An ID past `Number.MAX_SAFE_INTEGER` is refused, as JavaScript would name another subscription.
 */
export function subscriptionIds(values: readonly string[]): { ids: number[] } | { wrong: string; why?: string } {
  const ids: number[] = [];
  const unsafe = (item: string, text: string | undefined) =>
    Number.isSafeInteger(Number(text)) ? undefined : { wrong: item, why: `an ID is at most ${Number.MAX_SAFE_INTEGER} (2^53 - 1), the largest whole number the suite holds exactly` };
  for (const part of values.flatMap((value) => value.split(','))) {
    const item = part.trim();
    const range = /^([1-9]\d*)-([1-9]\d*)$/.exec(item);
    if (range !== null) {
      const tooLarge = unsafe(item, range[1]) ?? unsafe(item, range[2]);
      if (tooLarge !== undefined) return tooLarge;
      const first = Number(range[1]);
      const last = Number(range[2]);
      if (last < first) return { wrong: item, why: 'a range goes from the smaller ID to the larger' };
      if (last - first >= maxSubscriptionRange) return { wrong: item, why: `a range names at most ${maxSubscriptionRange.toLocaleString('en-US')} IDs, and this one names ${(last - first + 1).toLocaleString('en-US')}` };
      for (let id = first; id <= last; id += 1) ids.push(id);
    } else if (/^[1-9]\d*$/.test(item)) {
      const tooLarge = unsafe(item, item);
      if (tooLarge !== undefined) return tooLarge;
      ids.push(Number(item));
    } else {
      return { wrong: item };
    }
  }
  return { ids: [...new Set(ids)] };
}

export async function runConformanceCommand(args: readonly string[], context: CommandContext): Promise<number> {
  const usage =
    `Usage: ${context.invocation} ${conformanceOptionsSynopsis}\n` +
    `       ${context.invocation} [--junit FILE]   (starts a sandbox of its own)\n` +
    exitCodeSummary;
  const help = `${usage.split('\nExit codes:', 1)[0]}\n\nOptions:\n${conformanceOptionHelp.map(({ option, text }) => `  ${option.padEnd(26)} ${text}`).join('\n')}\n\n${exitCodeSummary}`;
  let values: {
    'base-url'?: string;
    'api-key'?: string;
    subscription?: string[];
    junit?: string;
    'allow-unreached'?: boolean;
    'max-retry-after'?: string;
    generated?: string;
    seed?: string;
    verbose?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        subscription: { type: 'string', multiple: true },
        junit: { type: 'string' },
        'allow-unreached': { type: 'boolean' },
        'max-retry-after': { type: 'string' },
        generated: { type: 'string' },
        seed: { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return exitCodes.usage;
  }
  if (values.help === true) {
    console.log(help);
    return exitCodes.passed;
  }
  const maxRetryAfter = values['max-retry-after'];
  if (maxRetryAfter !== undefined && !/^\d{1,6}$/.test(maxRetryAfter)) {
    console.error(`--max-retry-after takes a whole number of seconds (${defaultMaxRetryAfterSeconds} unless told), not "${maxRetryAfter}".\n${usage}`);
    return exitCodes.usage;
  }
  const { generated, seed } = values;
  if (generated !== undefined && !(/^\d{1,6}$/.test(generated) && Number(generated) <= maxGeneratedRuns)) {
    console.error(`--generated takes a whole number of bodies from 0 to ${maxGeneratedRuns.toLocaleString('en-US')} (${defaultGeneratedRuns} unless told), not "${generated}".\n${usage}`);
    return exitCodes.usage;
  }
  if (seed !== undefined && !(/^\d{1,10}$/.test(seed) && Number(seed) <= maxSeed)) {
    console.error(`--seed takes the whole number a report printed, from 0 to ${maxSeed}, not "${seed}".\n${usage}`);
    return exitCodes.usage;
  }
  const named = subscriptionIds(values.subscription ?? []);
  if ('wrong' in named) {
    console.error(`--subscription takes a subscription ID (a whole number of at least 1), a range such as 1-30, or a list such as 4,7,9; not "${named.wrong}"${named.why === undefined ? '' : `: ${named.why}`}.`);
    return exitCodes.usage;
  }
  const { ids } = named;
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined) {
    const problem = baseUrlProblem(baseUrl);
    if (problem !== undefined) {
      console.error(`${problem}\n${usage}`);
      return exitCodes.usage;
    }
    if (values['api-key'] === undefined || values['api-key'] === '' || ids.length === 0) {
      console.error(`Against a site, --api-key and at least one --subscription are needed: the suite changes only the subscriptions you name.\n${usage}`);
      return exitCodes.usage;
    }
  } else if (ids.length > 0) {
    console.error(`--subscription needs --base-url: without it the suite starts a sandbox with subscriptions of its own.\n${usage}`);
    return exitCodes.usage;
  }

  const junit = path.resolve(values.junit ?? defaultJunit);
  const junitProblem = junitPathProblem(junit);
  if (junitProblem !== undefined) {
    console.error(`Cannot write the JUnit report: ${junitProblem}.\n${usage}`);
    return exitCodes.usage;
  }

  let contract;
  try {
    contract = await context.contract();
  } catch (error) {
    if (error instanceof ContractUnavailable) {
      console.error(error.message);
      return exitCodes.mismatch;
    }
    throw error;
  }

  let sandbox: Sandbox | undefined;
  if (baseUrl === undefined) {
    sandbox = await startOwnSandbox(values['api-key'], () => Promise.resolve(contract));
    console.log(`No --base-url: started a sandbox at ${sandbox.url} with ${sandbox.subscriptions().length} subscriptions of its own.`);
  }
  try {
    const target = sandbox?.url ?? baseUrl ?? '';
    const apiKey = sandbox?.apiKey ?? values['api-key'] ?? '';
    console.log(`Checking ${contract.model.endpoint.method} ${target}${contract.model.endpoint.urlPath} against the document (version ${contract.model.documentVersion}).`);
    const report = await runConformance({
      contract,
      baseUrl: target,
      apiKey,
      subscriptions: sandbox?.subscriptions().map((subscription) => subscription.id) ?? ids,
      imitatesHost: sandbox !== undefined,
      throttleHeader,
      ...(maxRetryAfter === undefined ? {} : { maxRetryAfterSeconds: Number(maxRetryAfter) }),
      ...(generated === undefined ? {} : { generated: Number(generated) }),
      ...(seed === undefined ? {} : { seed: Number(seed) }),
      // A passed case is a line of the coverage matrix and of the JUnit file already: listed with --verbose only.
      ...(baseUrl === undefined ? {} : { log: (line: string) => (values.verbose === true || !line.startsWith('✔ ') ? console.log(line) : undefined) }),
      onForecast: (forecast) => console.log(forecastLine(forecast)),
    });
    // The report is printed first: a file that cannot be written after all never hides it.
    const writeJunit = (): boolean => {
      try {
        writeFileSync(junit, junitXml(report, apiKey));
        return true;
      } catch (error) {
        console.error(`Could not write the JUnit report to ${junit}: ${(error as Error).message.split('\n', 1)[0]}`);
        return false;
      }
    };
    if (report.setup !== undefined) {
      console.error(`\n✖ ${report.setup.message}`);
      console.log(summaryLine(report));
      writeJunit();
      return exitCodeOf(report, values['allow-unreached'] === true);
    }
    console.log('');
    for (const line of coverageMatrix(contract, report)) console.log(line);
    console.log('');
    for (const line of report.fatal) console.log(`✖ ${line}`);
    for (const line of mismatchDetails(report, apiKey)) console.log(line);
    for (const line of generatedDetails(report, apiKey)) console.log(line);
    const notes = noteDetails(report, apiKey);
    if (notes.length > 0) {
      console.log('Notes: members the document does not name. Clients must tolerate them and so does the suite; none is a failure.');
      for (const line of notes) console.log(line);
    }
    for (const subscription of report.subscriptions) {
      const where =
        subscription.before === undefined
          ? 'its status could not be read; it was not used'
          : subscription.restored
            ? `${subscription.before}, as before`
            : `ended ${subscription.after ?? 'in an unknown status'} (was ${subscription.before}; the moves cannot lead back)`;
      if (baseUrl !== undefined || !subscription.restored) console.log(`subscription ${subscription.id}: ${where}`);
    }
    const hint = notReachedHint(report);
    if (hint !== undefined) console.log(hint);
    console.log(summaryLine(report));
    if (writeJunit()) console.log(`JUnit report: ${path.relative(process.cwd(), junit) || junit}`);
    const code = exitCodeOf(report, values['allow-unreached'] === true);
    if (code === exitCodes.unreached) console.log(`Exit ${code}: some cases were not reached. Name more subscriptions as said above, or accept it with --allow-unreached.`);
    return code;
  } finally {
    await sandbox?.close();
  }
}
