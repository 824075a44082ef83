/**
 * The sandbox as `npm run sandbox` starts it, quiet (no line per request), for the benchmark.
 *
 *   node scripts/bench-sandbox/serve-sandbox.ts DB_FILE SUBSCRIPTIONS STATUS
 *
 * Prints the base URL on the first line of standard output.
 */
import { startSandbox } from '../../src/sandbox/server.ts';
import { scriptArguments } from '../script-options.ts';

const { positionals } = scriptArguments('Usage: node scripts/bench-sandbox/serve-sandbox.ts DB_FILE SUBSCRIPTIONS STATUS', {}, { positionals: true });
const [file = ':memory:', count = '16', status = ''] = positionals;
const seed = Array.from({ length: Number(count) }, (_, index) => ({ id: index + 1, status }));
const sandbox = await startSandbox({ port: 0, db: file, seed });
process.stdout.write(`${sandbox.url}\n`);
process.once('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
