/**
 * `npm run bench:scale`: copies of the project with 8, 50 and 200 actions (each added action a
 * copy of an existing one) taken through the gate, the build, the sandbox and the
 * product-information server; prints how time and bytes grow with the actions (src/bench/scale-bench.ts).
 * A size whose copy the gate or the build refuses is a finding, printed with the refusal's lines
 * (exit code 1), not a crash.
 *   npm run bench:scale -- [--sizes 8,50,200]
 */
import path from 'node:path';
import { runScaleBench } from '../src/bench/scale-bench.ts';
import { scriptArguments } from './script-options.ts';

const usage = 'Usage: npm run bench:scale -- [--sizes 8,50,200]';
const { values } = scriptArguments(usage, { sizes: { type: 'string', default: '8,50,200' } });
const sizes = (values.sizes ?? '').split(',').map(Number);
if (sizes.length === 0 || sizes.some((size) => !Number.isInteger(size) || size < 8)) {
  console.error(`--sizes must list whole numbers of actions, 8 (the contract as it is) or more, such as 8,50,200.\n${usage}`);
  process.exit(2);
}
// A size the gate or the build refuses is reported with what it said; the exit code says so too.
const { report, refused } = await runScaleBench(path.resolve(import.meta.dirname, '..'), sizes);
console.log(report);
if (refused) process.exitCode = 1;
