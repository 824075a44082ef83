/**
 * The conformance command, as `npm run conformance` and the published package's `conformance` run it:
 *
 *   --base-url URL --api-key KEY --subscription ID [--subscription ID ...] [--junit FILE]
 *   [--junit FILE]                           (against a sandbox of its own)
 *
 * `--base-url` is the site's base URL: its origin, with the path of a subdirectory install. Only the
 * named subscriptions are changed. Exits 0 when every case answers as documented, 1 on any
 * mismatch (each named with its request, what the document expects and what came back) or when
 * the contract cannot be used, 2 on wrong options.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startOwnSandbox } from '../conformance/own-sandbox.ts';
import { coverageMatrix, junitXml, mismatchDetails, notReachedHint, summaryLine } from '../conformance/report.ts';
import { runConformance } from '../conformance/runner.ts';
import { throttleHeader } from '../sandbox/host.ts';
import type { Sandbox } from '../sandbox/server.ts';
import { exitCode, type CommandContext } from './command.ts';
import { ContractUnavailable } from './contract-source.ts';

export const conformanceOptionsSynopsis = '--base-url URL --api-key KEY --subscription ID [--subscription ID ...] [--junit FILE]';
const defaultJunit = 'conformance-report.xml';

export async function runConformanceCommand(args: readonly string[], context: CommandContext): Promise<number> {
  const usage =
    `Usage: ${context.invocation} ${conformanceOptionsSynopsis}\n` +
    `       ${context.invocation} [--junit FILE]   (starts a sandbox of its own)`;
  let values: { 'base-url'?: string; 'api-key'?: string; subscription?: string[]; junit?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        subscription: { type: 'string', multiple: true },
        junit: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return exitCode.usage;
  }
  if (values.help === true) {
    console.log(usage);
    return exitCode.ok;
  }
  const baseUrl = values['base-url'];
  const ids = (values.subscription ?? []).map(Number);
  if (baseUrl !== undefined) {
    try {
      const parsed = new URL(baseUrl);
      if (!/^https?:$/.test(parsed.protocol)) throw new Error('not http');
    } catch {
      console.error(`--base-url must be an http or https URL such as https://shop.example, not "${baseUrl}".\n${usage}`);
      return exitCode.usage;
    }
    if (values['api-key'] === undefined || values['api-key'] === '' || ids.length === 0) {
      console.error(`Against a site, --api-key and at least one --subscription are needed: the suite changes only the subscriptions you name.\n${usage}`);
      return exitCode.usage;
    }
  } else if (ids.length > 0) {
    console.error(`--subscription needs --base-url: without it the suite starts a sandbox with subscriptions of its own.\n${usage}`);
    return exitCode.usage;
  }
  const badId = (values.subscription ?? []).find((id) => !/^[1-9]\d*$/.test(id));
  if (badId !== undefined) {
    console.error(`--subscription takes a subscription ID, a whole number of at least 1, not "${badId}".`);
    return exitCode.usage;
  }

  let contract;
  try {
    contract = await context.contract();
  } catch (error) {
    if (error instanceof ContractUnavailable) {
      console.error(error.message);
      return exitCode.failed;
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
      log: baseUrl === undefined ? undefined : (line) => console.log(line),
    });
    console.log('');
    for (const line of coverageMatrix(contract, report)) console.log(line);
    console.log('');
    for (const line of report.fatal) console.log(`✖ ${line}`);
    for (const line of mismatchDetails(report, apiKey)) console.log(line);
    if (baseUrl !== undefined) {
      for (const subscription of report.subscriptions) {
        const where =
          subscription.before === undefined
            ? 'its status could not be read; it was not used'
            : subscription.restored
              ? `${subscription.before}, as before`
              : `left ${subscription.after ?? 'in an unknown status'} (was ${subscription.before}; the moves cannot lead back)`;
        console.log(`subscription ${subscription.id}: ${where}`);
      }
    }
    const hint = notReachedHint(report);
    if (hint !== undefined) console.log(hint);
    const junit = path.resolve(values.junit ?? defaultJunit);
    writeFileSync(junit, junitXml(report, apiKey));
    console.log(summaryLine(report));
    console.log(`JUnit report: ${path.relative(process.cwd(), junit) || junit}`);
    return report.fatal.length > 0 || report.results.some((result) => result.status === 'failed') ? exitCode.failed : exitCode.ok;
  } finally {
    await sandbox?.close();
  }
}
