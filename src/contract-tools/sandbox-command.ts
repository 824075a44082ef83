/**
 * The sandbox command, as `npm run sandbox` and the published package's `sandbox` run it:
 *
 *   [--port N] [--api-key KEY] [--seed FILE] [--db FILE] [--base-path P] [--throttle-next N [--retry-after S]]
 *
 * Exits 1 when the contract cannot be used or the seed or database cannot (saying why), 2 on
 * options it does not know. Stops on Ctrl+C or SIGTERM; the data stays in the `--db` file.
 */
import { parseArgs } from 'node:util';
import { retryAfterHeader } from '../lib/contract/response-names.ts';
import { isRetryAfter } from '../lib/http/retry-after.ts';
import { defaultRetryAfterSeconds, hostErrorHeader, hostErrorStatuses, maxThrottledRequests, throttleHeader } from '../sandbox/host.ts';
import { defaultApiKey, SeedError } from '../sandbox/seed.ts';
import { defaultPort, startSandbox } from '../sandbox/server.ts';
import { StoreError } from '../sandbox/store.ts';
import { exitCode, type CommandContext } from './command.ts';
import { ContractUnavailable } from './contract-source.ts';

/** Subscriptions listed one per line when the sandbox starts; a larger seed is summed up by status after them. */
const listedSubscriptions = 40;

export const sandboxOptionsSynopsis = '[--port N] [--api-key KEY] [--seed FILE] [--db FILE] [--base-path P] [--throttle-next N [--retry-after S]]';

/** What each option does, for --help and the package's README. */
export const sandboxOptionHelp: readonly { option: string; text: string }[] = [
  { option: '--port N', text: `the port to listen on (${defaultPort} unless told; 0 picks a free one)` },
  { option: '--api-key KEY', text: `accept this key instead of the default, visibly fake one (${defaultApiKey})` },
  { option: '--seed FILE', text: 'start with your own subscriptions, a JSON file such as [{"id": 1, "status": "active"}]' },
  { option: '--db FILE', text: 'keep the subscriptions in this SQLite file (by default they live in memory)' },
  { option: '--base-path P', text: 'serve under a path, as a WordPress site installed in a subdirectory' },
  { option: '--throttle-next N', text: `answer the next N requests (0 to ${maxThrottledRequests}) as a throttling host would, then let requests pass` },
  { option: '--retry-after S', text: `with --throttle-next: the Retry-After those answers carry, seconds or an HTTP date (${defaultRetryAfterSeconds} unless told)` },
];

/** The request headers that make the sandbox answer as its host would, for --help and the README. */
export const sandboxHeaderHelp: readonly { header: string; text: string }[] = [
  { header: `${throttleHeader}: S`, text: `answer this request as a throttling host would, with ${retryAfterHeader}: S, changing nothing` },
  { header: `${hostErrorHeader}: ${hostErrorStatuses.join('|')}`, text: 'answer this request with that status and an HTML page, as a firewall or a gateway would' },
];

export async function runSandboxCommand(args: readonly string[], context: CommandContext): Promise<number> {
  const usage = `Usage: ${context.invocation} ${sandboxOptionsSynopsis}`;
  let values: { port?: string; 'api-key'?: string; seed?: string; db?: string; 'base-path'?: string; 'throttle-next'?: string; 'retry-after'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        port: { type: 'string' },
        'api-key': { type: 'string' },
        seed: { type: 'string' },
        db: { type: 'string' },
        'base-path': { type: 'string' },
        'throttle-next': { type: 'string' },
        'retry-after': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return exitCode.usage;
  }
  if (values.help === true) {
    const options = sandboxOptionHelp.map(({ option, text }) => `  ${option.padEnd(20)} ${text}`);
    const headers = sandboxHeaderHelp.map(({ header, text }) => `  ${header.padEnd(36)} ${text}`);
    console.log(
      `${usage}\n\nServes the endpoint of the contract on 127.0.0.1 until Ctrl+C.\n\nOptions:\n${options.join('\n')}\n\nRequest headers:\n${headers.join('\n')}\n\n` +
        `Exit codes: ${exitCode.ok} when stopped; ${exitCode.failed} when the contract, the seed or the database cannot be used or the port is taken; ${exitCode.usage} on wrong options.`,
    );
    return exitCode.ok;
  }
  const port = values.port === undefined ? defaultPort : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535, not "${values.port}".\n${usage}`);
    return exitCode.usage;
  }
  // The first N requests answer as a throttling host, then requests pass: a client's retry after a 429 can be watched succeed.
  const throttleNext = values['throttle-next'] === undefined ? 0 : Number(values['throttle-next']);
  if (!Number.isInteger(throttleNext) || throttleNext < 0 || throttleNext > maxThrottledRequests) {
    console.error(`--throttle-next must be a whole number from 0 to ${maxThrottledRequests}, not "${values['throttle-next']}".\n${usage}`);
    return exitCode.usage;
  }
  const retryAfter = values['retry-after'] ?? String(defaultRetryAfterSeconds);
  if (!isRetryAfter(retryAfter) || (values['retry-after'] !== undefined && values['throttle-next'] === undefined)) {
    console.error(`--retry-after goes with --throttle-next and is a number of seconds or an HTTP date, not "${retryAfter}".\n${usage}`);
    return exitCode.usage;
  }
  if (values['api-key'] === '') {
    console.error(`--api-key must not be empty.\n${usage}`);
    return exitCode.usage;
  }

  let sandbox;
  try {
    sandbox = await startSandbox({
      contract: await context.contract(),
      port,
      db: values.db ?? ':memory:',
      ...(values['api-key'] === undefined ? {} : { apiKey: values['api-key'] }),
      ...(values.seed === undefined ? {} : { seed: values.seed }),
      ...(values['base-path'] === undefined ? {} : { basePath: values['base-path'] }),
      log: (line) => console.log(line),
    });
  } catch (error) {
    if (error instanceof ContractUnavailable || error instanceof SeedError || error instanceof StoreError) {
      console.error(error.message);
      return exitCode.failed;
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`Port ${port} is in use; pick another with --port.`);
      return exitCode.failed;
    }
    throw error;
  }

  sandbox.throttleNext(throttleNext, retryAfter);
  const { contract } = sandbox;
  const { envelope } = contract.model;
  const subscriptions = sandbox.subscriptions();
  console.log(`Sandbox of ${contract.model.endpoint.method} ${sandbox.endpointUrl}`);
  console.log(`  contract version ${contract.model.documentVersion}; data in ${values.db ?? ':memory: (gone when it stops; keep it with --db FILE)'}`);
  console.log(`  ${envelope.credential}: ${sandbox.apiKey}${values['api-key'] === undefined ? ' (the default; set another with --api-key)' : ''}`);
  console.log(`  ${subscriptions.length} subscription(s):`);
  for (const { id, status } of subscriptions.slice(0, listedSubscriptions)) console.log(`    ${envelope.subject} ${id}: ${status}`);
  if (subscriptions.length > listedSubscriptions) {
    const rest = subscriptions.slice(listedSubscriptions);
    const counts = contract.model.lifecycle.states.flatMap((status) => {
      const count = rest.filter((subscription) => subscription.status === status).length;
      return count === 0 ? [] : [`${count} ${status}`];
    });
    console.log(`    and ${rest.length} more (${counts.join(', ')}), up to ${envelope.subject} ${rest.at(-1)?.id}`);
  }
  console.log(`  Header ${throttleHeader}: S answers ${contract.throttled.status} with ${contract.retryAfterHeader}: S; ${hostErrorHeader}: ${hostErrorStatuses.join('|')} answers as the host would.`);
  if (throttleNext > 0) console.log(`  The next ${throttleNext} request(s) answer ${contract.throttled.status} with ${contract.retryAfterHeader}: ${retryAfter}; then requests pass.`);
  console.log('  Ctrl+C stops it.');

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sandbox.close();
  return exitCode.ok;
}
