/**
 * The published evaluation of the product-information server (src/mcp-server/evaluation/): every
 * question asked by the plain agent of the SDK's client in this process, at least 95 % right and
 * a median under 16,000 characters a question; and the figures the server's page shows are
 * those of this run, so they cannot go stale silently.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { evaluationResultsFile, runEvaluation, type EvaluationResults } from '../../src/mcp-server/evaluation/run-evaluation.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');

test('the plain agent answers at least 95 % of the questions right, at a median under 16,000 characters, and the page shows this run', async (context) => {
  ensureBuiltSite(projectDirectory);
  const fresh = await runEvaluation(projectDirectory);
  const { summary } = fresh;
  context.diagnostic(`${summary.right} of ${summary.questions} right (${summary.rightShare} %), median ${summary.medianCharacters} characters per question, ${summary.meanCalls} calls on average`);
  assert.ok(summary.questions >= 40, `${summary.questions} questions`);
  assert.ok(summary.rightShare >= 95, `only ${summary.rightShare} % right: ${fresh.results.filter((result) => !result.right).map((result) => `${result.id} (missing ${result.missing.join(', ')})`).join('; ')}`);
  assert.ok(summary.medianCharacters <= 16000, `median ${summary.medianCharacters} characters`);
  const published = JSON.parse(readFileSync(evaluationResultsFile, 'utf8')) as EvaluationResults;
  assert.deepEqual(published, fresh, 'the committed results are stale: run `npm run evaluate:mcp -- --write`');
});
