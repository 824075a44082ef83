/**
 * `npm run conformance`: checks a deployment of the endpoint against the document.
 *
 *   npm run conformance -- --base-url URL --api-key KEY --subscription ID [--subscription ID ...] [--junit FILE] [--allow-unreached]
 *   npm run conformance                      (against a sandbox of its own)
 *
 * `--base-url` is the site's base URL: its origin, with the path of a subdirectory install. Only the
 * named subscriptions are changed. Exit codes (`src/conformance/exit-codes.ts`):
 *   0  every case reached, and every answer as the document says
 *   1  a mismatch: an answer off the document (each kind printed once, with a count and an example)
 *   2  wrong options
 *   3  cannot connect (connection refused, a name that does not resolve, a time-out, a TLS error)
 *   4  the host answers, but not as a WordPress REST API with the endpoint (an HTML page, no route)
 *   5  the key is refused on a request that is otherwise valid
 *   6  a named subscription does not exist on the site
 *   7  every case reached passed, but some were not reached (0 instead with --allow-unreached)
 * Codes 3 to 6 are found before a single case is judged.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startOwnSandbox } from '../src/conformance/own-sandbox.ts';
import { exitCodeOf, exitCodes } from '../src/conformance/exit-codes.ts';
import { coverageMatrix, junitXml, mismatchDetails, noteDetails, notReachedHint, summaryLine } from '../src/conformance/report.ts';
import { forecastLine, runConformance } from '../src/conformance/runner.ts';
import { ContractRefused, loadGatedContract } from '../src/sandbox/contract-gate.ts';
import { throttleHeader } from '../src/sandbox/host.ts';
import type { Sandbox } from '../src/sandbox/server.ts';

const usage =
  'Usage: npm run conformance -- --base-url URL --api-key KEY --subscription ID [--subscription ID ...] [--junit FILE] [--allow-unreached]\n' +
  '       npm run conformance [-- --junit FILE]   (starts a sandbox of its own)\n' +
  'Exit codes: 0 every case reached and passed; 1 a mismatch; 2 wrong options; 3 cannot connect;\n' +
  '            4 not a WordPress REST API with the endpoint; 5 the key is refused; 6 a named subscription\n' +
  '            does not exist; 7 cases not reached (0 instead with --allow-unreached).';
const defaultJunit = 'conformance-report.xml';
const projectDirectory = path.resolve(import.meta.dirname, '..');

async function main(): Promise<number> {
  let values: { 'base-url'?: string; 'api-key'?: string; subscription?: string[]; junit?: string; 'allow-unreached'?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        subscription: { type: 'string', multiple: true },
        junit: { type: 'string' },
        'allow-unreached': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return exitCodes.usage;
  }
  if (values.help === true) {
    console.log(usage);
    return exitCodes.passed;
  }
  const baseUrl = values['base-url'];
  const ids = (values.subscription ?? []).map(Number);
  if (baseUrl !== undefined) {
    try {
      const parsed = new URL(baseUrl);
      if (!/^https?:$/.test(parsed.protocol)) throw new Error('not http');
    } catch {
      console.error(`--base-url must be an http or https URL such as https://shop.example, not "${baseUrl}".\n${usage}`);
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
  const badId = (values.subscription ?? []).find((id) => !/^[1-9]\d*$/.test(id));
  if (badId !== undefined) {
    console.error(`--subscription takes a subscription ID, a whole number of at least 1, not "${badId}".`);
    return exitCodes.usage;
  }

  let contract;
  try {
    contract = await loadGatedContract(projectDirectory);
  } catch (error) {
    if (error instanceof ContractRefused) {
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
      ...(baseUrl === undefined ? {} : { log: (line: string) => console.log(line) }),
      onForecast: (forecast) => console.log(forecastLine(forecast)),
    });
    const junit = path.resolve(values.junit ?? defaultJunit);
    writeFileSync(junit, junitXml(report, apiKey));
    if (report.setup !== undefined) {
      console.error(`\n✖ ${report.setup.message}`);
      console.log(summaryLine(report));
      return exitCodeOf(report, values['allow-unreached'] === true);
    }
    console.log('');
    for (const line of coverageMatrix(contract, report)) console.log(line);
    console.log('');
    for (const line of report.fatal) console.log(`✖ ${line}`);
    for (const line of mismatchDetails(report, apiKey)) console.log(line);
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
    console.log(`JUnit report: ${path.relative(process.cwd(), junit) || junit}`);
    const code = exitCodeOf(report, values['allow-unreached'] === true);
    if (code === exitCodes.unreached) console.log(`Exit ${code}: some cases were not reached. Name more subscriptions as said above, or accept it with --allow-unreached.`);
    return code;
  } finally {
    await sandbox?.close();
  }
}

process.exitCode = await main();
