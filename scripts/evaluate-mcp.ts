/**
 * `npm run evaluate:mcp [-- --write]`: the published evaluation of the product-information
 * server (src/mcp-server/evaluation/): every question asked by the plain agent, a line each, then
 * the figures; `--write` records them in results.json, which the server's page shows.
 * `--held-out` asks the held-out questions instead (src/mcp-server/evaluation/held-out-questions.ts),
 * which are never written down as published figures.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureBuiltSite } from '../src/host/built-site.ts';
import { evaluationResultsFile, runEvaluation } from '../src/mcp-server/evaluation/run-evaluation.ts';
import { scriptArguments } from './script-options.ts';

const usage = 'Usage: npm run evaluate:mcp -- [--write (record the figures in results.json, which the server\'s page shows) | --held-out (the questions kept out of the evaluation)]';
const { values: options } = scriptArguments(usage, { write: { type: 'boolean' }, 'held-out': { type: 'boolean' } });
if (options.write === true && options['held-out'] === true) {
  console.error(`--write records the published evaluation only.\n${usage}`);
  process.exit(2);
}

const projectDirectory = path.resolve(import.meta.dirname, '..');
ensureBuiltSite(projectDirectory);
const { summary, results } = await runEvaluation(projectDirectory, undefined, options['held-out'] === true ? 'held-out' : 'published');
for (const result of results) {
  console.log(`${result.right ? 'right' : 'WRONG'}  ${String(result.characters).padStart(6)} chars  ${result.calls} calls  ${result.question}${result.right ? '' : `  (missing: ${result.missing.join(', ')})`}`);
}
console.log(`\n${summary.right} of ${summary.questions} right (${summary.rightShare} %), median ${summary.medianCharacters} characters per question, ${summary.meanCalls} calls on average; tools/list ${summary.toolsListCharacters} characters once.`);
if (options.write === true) writeFileSync(evaluationResultsFile, `${JSON.stringify({ summary, results }, null, 2)}\n`);
