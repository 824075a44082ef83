import path from 'node:path';
import { createProductInformationHandler } from '../handler.ts';
import { readServerIdentity } from '../identity.ts';
import { loadKnowledge } from '../load-knowledge.ts';
import { askAgent, summarise, type EvaluationSummary, type ListedTool, type QuestionResult } from './agent.ts';
import { connectInProcess } from './in-process-client.ts';
import { heldOutQuestions } from './held-out-questions.ts';
import { evaluationQuestions, type EvaluationQuestion } from './questions.ts';

/** What `npm run evaluate:mcp` writes and the product-information server's page shows. */
export interface EvaluationResults {
  summary: EvaluationSummary;
  results: QuestionResult[];
}

/** A run: its results, and the questions it asked, with the facts each answer had to carry. */
export interface EvaluationRun extends EvaluationResults {
  questions: EvaluationQuestion[];
}

/** The committed results, beside this file. */
export const evaluationResultsFile = path.join(import.meta.dirname, 'results.json');

/** Which questions a run asks: the published evaluation's, or the held-out set (held-out-questions.ts). */
export type QuestionSet = 'published' | 'held-out';

/**
 * Every question of the evaluation asked of the server in this process, through the SDK's own
 * client (its transport's fetch is the handler's), from the pages the build wrote into `siteDirectory`.
 */
export async function runEvaluation(projectDirectory: string, siteDirectory?: string, questionSet: QuestionSet = 'published'): Promise<EvaluationRun> {
  const knowledge = await loadKnowledge(projectDirectory, siteDirectory);
  const identity = readServerIdentity(projectDirectory);
  const handler = createProductInformationHandler(identity, knowledge);
  const client = await connectInProcess(handler, 'evaluation');
  try {
    const { tools } = await client.listTools();
    const toolsListCharacters = JSON.stringify(tools).length;
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text?: string }[];
      return content.map((item) => item.text ?? '').join('\n');
    };
    const questions = questionSet === 'held-out' ? heldOutQuestions(knowledge.model) : evaluationQuestions(knowledge.model, knowledge.facts, identity);
    const results: QuestionResult[] = [];
    for (const question of questions) results.push(await askAgent(question, tools as ListedTool[], call));
    return { summary: summarise(results, toolsListCharacters), results, questions };
  } finally {
    await client.close();
    await handler.close();
  }
}
