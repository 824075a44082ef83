/**
 * `npm run wordpress`: a real WordPress on 127.0.0.1 with the reference plugin of the contract.
 *
 *   npm run wordpress -- start [--port N] | stop | status | reset [--file F] | seed [--file F] | generate | remove
 *
 * `stop` keeps the database (in /var/lib/service-reference/<checkout>) for the next start; `remove`
 * stops the site and deletes it and every other file the site has outside and inside the checkout.
 *
 * Exits 1 with one line saying why when something cannot be done, 2 on wrong options, 3 from
 * `status` when the site does not run.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ContractRefused, loadGatedContract } from '../src/sandbox/contract-gate.ts';
import { listInWords } from '../src/lib/prose.ts';
import { SeedError } from '../src/sandbox/seed.ts';
import type { Subscription } from '../src/sandbox/store.ts';
import { writePluginContract } from '../src/wordpress/generate.ts';
import { WordPressError, removeWordPressFiles, republishPlugin, resetWordPress, seedWordPress, startWordPress, stopWordPress, wordpressStatus } from '../src/wordpress/site.ts';

const usage = [
  'Usage: npm run wordpress -- start [--port N] | stop | status | reset [--file F] | seed [--file F] | generate | remove',
  'Exit codes: 0 done (status: the site runs), 1 something could not be done (one line says why), 2 wrong options, 3 status: the site does not run.',
].join('\n');
/** The options each command takes; any other is refused rather than ignored. */
const optionsOf: Record<string, readonly string[]> = { start: ['port'], reset: ['file'], seed: ['file'] };
const projectDirectory = path.resolve(import.meta.dirname, '..');

function printSubscriptions(subscriptions: Subscription[]): void {
  const byStatus = new Map<string, number[]>();
  for (const { id, status } of subscriptions) byStatus.set(status, [...(byStatus.get(status) ?? []), id]);
  for (const [status, ids] of byStatus) console.log(`  ${status}: ${ids.join(', ')}`);
}

async function main(): Promise<number> {
  let values: { port?: string; file?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      allowPositionals: true,
      options: { port: { type: 'string' }, file: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const [command, ...extra] = positionals;
  if (values.help === true) {
    console.log(usage);
    return 0;
  }
  if (command === undefined || extra.length > 0) {
    console.error(usage);
    return 2;
  }
  const given = (['port', 'file'] as const).filter((option) => values[option] !== undefined);
  const unused = given.filter((option) => !(optionsOf[command] ?? []).includes(option));
  if (unused.length > 0) {
    console.error(`${command} takes no --${unused.join(' or --')}.\n${usage}`);
    return 2;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    console.error(`--port must be a whole number from 0 to 65535, not "${values.port}".\n${usage}`);
    return 2;
  }

  switch (command) {
    case 'generate': {
      const file = writePluginContract(await loadGatedContract(projectDirectory), projectDirectory);
      console.log(`Wrote ${path.relative(projectDirectory, file)} from the OpenAPI document.`);
      if (await republishPlugin({ projectDirectory })) console.log('The running site serves it now.');
      return 0;
    }
    case 'start': {
      const site = await startWordPress({ projectDirectory, ...(port === undefined ? {} : { port }), log: (line) => console.log(`  ${line}`) });
      console.log(site.alreadyRunning ? `WordPress already runs at ${site.baseUrl}` : `WordPress runs at ${site.baseUrl} (started in ${site.seconds.toFixed(1)} s)`);
      console.log(`  endpoint: POST ${site.endpointUrl}`);
      console.log(`  API key:  ${site.apiKey}`);
      console.log(`  PIDs:     Apache ${site.apachePid}, MariaDB ${site.mariadbPid}`);
      if (site.seeded.length > 0) {
        console.log('  seeded subscriptions:');
        printSubscriptions(site.seeded);
      }
      console.log('  stop it with: npm run wordpress -- stop');
      return 0;
    }
    case 'stop': {
      const stopped = await stopWordPress({ projectDirectory });
      console.log(stopped.length > 0 ? `Stopped ${listInWords(stopped, 'and')}.` : 'WordPress was not running.');
      return 0;
    }
    case 'remove': {
      const stopped = await stopWordPress({ projectDirectory });
      removeWordPressFiles({ projectDirectory });
      console.log(`${stopped.length > 0 ? `Stopped ${listInWords(stopped, 'and')}; r` : 'R'}emoved the database and every file of the site.`);
      return 0;
    }
    case 'status': {
      const status = await wordpressStatus({ projectDirectory });
      if (status.running && status.state !== undefined) {
        console.log(`WordPress runs at ${status.state.baseUrl} (Apache ${status.state.apachePid}, MariaDB ${status.state.mariadbPid}); API key ${status.state.apiKey}`);
        if (status.problem !== undefined) console.log(`  but ${status.problem}: see .wordpress/logs/, or npm run wordpress -- generate if the answer names it`);
        return 0;
      }
      console.log(`WordPress does not run: ${status.reason ?? ''}`);
      return 3;
    }
    case 'seed':
    case 'reset': {
      const options = { projectDirectory, ...(values.file === undefined ? {} : { seed: values.file }) };
      const placed = command === 'seed' ? await seedWordPress(options) : await resetWordPress(options);
      console.log(command === 'seed' ? `Placed ${placed.length} subscription(s):` : `Dropped the plugin's data and placed ${placed.length} subscription(s):`);
      printSubscriptions(placed);
      return 0;
    }
    default:
      console.error(`Unknown command "${command}".\n${usage}`);
      return 2;
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof WordPressError || error instanceof SeedError) {
    console.error(error.message);
    process.exitCode = 1;
  } else if (error instanceof ContractRefused) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    console.error(`npm run wordpress failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
