/**
 * The published evaluation of the product-information server (src/mcp-server/evaluation/): every
 * question asked by the plain agent of the SDK's client in this process, held to bars set here
 * (at least 95 % right, a median of at most 5,000 characters and under three calls a question), each
 * result judged by its own question's facts. The figures the server's page shows (`results.json`,
 * written by `npm run evaluate:mcp -- --write`) must answer today's questions and hold the same
 * bars; they are never compared with a run, which would only prove the run equal to itself. The
 * held-out questions, kept out of the evaluation, are held to a bar of their own.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { summarise } from '../../src/mcp-server/evaluation/agent.ts';
import { factLabel } from '../../src/mcp-server/evaluation/facts.ts';
import type { EvaluationQuestion } from '../../src/mcp-server/evaluation/questions.ts';
import { evaluationResultsFile, runEvaluation, type EvaluationResults, type EvaluationRun } from '../../src/mcp-server/evaluation/run-evaluation.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');

/**
 * What the server must reach, on every run and in the figures the page shows. The median is the
 * aim issue #43 sets for what an agent reads a question; a page that grows an answer past it fails here.
 */
const bars = { questions: 40, rightShare: 95, medianCharacters: 5000, meanCalls: 3 };

/** Fails, naming the figure, where the evaluation falls below a bar or its results do not add up to its summary. */
function assertHoldsTheBars({ summary, results }: EvaluationResults, what: string): void {
  const wrong = results.filter((result) => !result.right).map((result) => `${result.id} (missing ${result.missing.join(', ')})`);
  assert.ok(summary.questions >= bars.questions, `${what}: ${summary.questions} questions`);
  assert.ok(summary.rightShare >= bars.rightShare, `${what}: only ${summary.rightShare} % right: ${wrong.join('; ')}`);
  assert.ok(summary.medianCharacters <= bars.medianCharacters, `${what}: median ${summary.medianCharacters} characters`);
  assert.ok(summary.meanCalls <= bars.meanCalls, `${what}: ${summary.meanCalls} calls a question on average`);
  assert.deepEqual(summary, summarise(results, summary.toolsListCharacters), `${what}: the summary is not that of its results`);
}

/** Fails where the results are not one for each question, in order, each judged by that question's own facts. */
function assertJudgedByTheFacts(results: EvaluationResults['results'], questions: EvaluationQuestion[], what: string): void {
  assert.deepEqual(
    results.map((result) => `${result.id}: ${result.question}`),
    questions.map((question) => `${question.id}: ${question.question}`),
    `${what}: not one result for each of today's questions (run \`npm run evaluate:mcp -- --write\`)`,
  );
  results.forEach((result, index) => {
    const labels = (questions[index]?.facts ?? []).map(factLabel);
    assert.ok(labels.length > 0, `${result.id}: a question without facts is right whatever the answer`);
    for (const missing of result.missing) assert.ok(labels.includes(missing), `${what}: ${result.id} misses "${missing}", which is not one of its facts`);
    assert.equal(result.right, result.missing.length === 0, `${what}: ${result.id} is right exactly when it misses no fact`);
    assert.ok(result.calls >= 1 && result.calls === result.tools.length && result.characters > 0, `${what}: ${result.id} answered without calling a tool`);
  });
}

describe('the evaluation of the product-information server', () => {
  let run: EvaluationRun;

  before(async () => {
    ensureBuiltSite(projectDirectory);
    run = await runEvaluation(projectDirectory);
  });

  test('the plain agent answers at least 95 % of the questions right, at a median of at most 5,000 characters', (context) => {
    const { summary } = run;
    context.diagnostic(`${summary.right} of ${summary.questions} right (${summary.rightShare} %), median ${summary.medianCharacters} characters per question, ${summary.meanCalls} calls on average`);
    assertHoldsTheBars(run, 'this run');
    assertJudgedByTheFacts(run.results, run.questions, 'this run');
  });

  test('the figures the page shows answer today\'s questions and hold the same bars', () => {
    const published = JSON.parse(readFileSync(evaluationResultsFile, 'utf8')) as EvaluationResults;
    assertHoldsTheBars(published, 'results.json');
    assertJudgedByTheFacts(published.results, run.questions, 'results.json');
  });
});

/**
 * The held-out questions (src/mcp-server/evaluation/held-out-questions.ts) are no part of the
 * published evaluation and were not used to tune the search: they show how it does on questions
 * it was not fitted to, and hold a bar of their own.
 */
const heldOutBars = { wrong: 1, medianCharacters: 8000 };

describe('the held-out questions', () => {
  test('the plain agent misses at most one and reads a median of at most 8,000 characters', async (context) => {
    ensureBuiltSite(projectDirectory);
    const heldOut = await runEvaluation(projectDirectory, undefined, 'held-out');
    const { summary } = heldOut;
    context.diagnostic(`${summary.right} of ${summary.questions} right, median ${summary.medianCharacters} characters per question`);
    const wrong = heldOut.results.filter((result) => !result.right).map((result) => `${result.id} (missing ${result.missing.join(', ')})`);
    assert.ok(summary.questions - summary.right <= heldOutBars.wrong, `wrong: ${wrong.join('; ')}`);
    assert.ok(summary.medianCharacters <= heldOutBars.medianCharacters, `median ${summary.medianCharacters} characters`);
    assertJudgedByTheFacts(heldOut.results, heldOut.questions, 'the held-out run');
  });
});

test('`npm run evaluate:mcp -- --held-out` records nothing: with --write it is refused with the usage, before any work', () => {
  const run = spawnSync(process.execPath, [path.join(projectDirectory, 'scripts/evaluate-mcp.ts'), '--write', '--held-out'], { cwd: projectDirectory, encoding: 'utf8' });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /--write records the published evaluation only/);
  assert.match(run.stderr, /Usage: npm run evaluate:mcp/);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
});
