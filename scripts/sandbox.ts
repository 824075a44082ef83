/**
 * `npm run sandbox`: the endpoint, served locally from the OpenAPI document.
 *
 *   npm run sandbox -- [--port N] [--api-key KEY] [--seed FILE] [--db FILE]
 *
 * Exits 1 when the contract fails the gate or the seed or database cannot be used (saying why),
 * 2 on options it does not know. Stops on Ctrl+C; the data stays in the `--db` file.
 */
import { parseArgs } from 'node:util';
import { ContractRefused } from '../src/sandbox/contract-gate.ts';
import { hostErrorHeader, hostErrorStatuses, throttleHeader } from '../src/sandbox/host.ts';
import { SeedError } from '../src/sandbox/seed.ts';
import { defaultPort, startSandbox } from '../src/sandbox/server.ts';
import { StoreError } from '../src/sandbox/store.ts';

const usage = 'Usage: npm run sandbox -- [--port N] [--api-key KEY] [--seed FILE] [--db FILE]';

async function main(): Promise<number> {
  let values: { port?: string; 'api-key'?: string; seed?: string; db?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        'api-key': { type: 'string' },
        seed: { type: 'string' },
        db: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (values.help === true) {
    console.log(usage);
    return 0;
  }
  const port = values.port === undefined ? defaultPort : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535, not "${values.port}".\n${usage}`);
    return 2;
  }
  if (values['api-key'] === '') {
    console.error(`--api-key must not be empty.\n${usage}`);
    return 2;
  }

  let sandbox;
  try {
    sandbox = await startSandbox({
      port,
      db: values.db ?? ':memory:',
      ...(values['api-key'] === undefined ? {} : { apiKey: values['api-key'] }),
      ...(values.seed === undefined ? {} : { seed: values.seed }),
      log: (line) => console.log(line),
    });
  } catch (error) {
    if (error instanceof ContractRefused || error instanceof SeedError || error instanceof StoreError) {
      console.error(error.message);
      return 1;
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`Port ${port} is in use; pick another with --port.`);
      return 1;
    }
    throw error;
  }

  const { contract } = sandbox;
  const { envelope } = contract.model;
  const subscriptions = sandbox.subscriptions();
  console.log(`Sandbox of ${contract.model.endpoint.method} ${sandbox.endpointUrl}`);
  console.log(`  contract version ${contract.model.documentVersion}; data in ${values.db ?? ':memory: (gone when it stops; keep it with --db FILE)'}`);
  console.log(`  ${envelope.credential}: ${sandbox.apiKey}${values['api-key'] === undefined ? ' (the default; set another with --api-key)' : ''}`);
  console.log(`  ${subscriptions.length} subscription(s):`);
  for (const { id, status } of subscriptions) console.log(`    ${envelope.subject} ${id}: ${status}`);
  console.log(`  Header ${throttleHeader}: S answers ${contract.throttled.status} with ${contract.retryAfterHeader}: S; ${hostErrorHeader}: ${hostErrorStatuses.join('|')} answers as the host would.`);
  console.log('  Ctrl+C stops it.');

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sandbox.close();
  return 0;
}

process.exitCode = await main();
