import { median } from '../../lib/measures/statistics.ts';
import { factLabel, missingFacts } from './facts.ts';
import type { EvaluationQuestion } from './questions.ts';

export { comparable } from './facts.ts';

/** A tool call as the agent makes it: the text of the answer's content, what a model would read and pay for. */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<string>;

/** A tool as tools/list describes it: its name and the values its input schema allows. */
export interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, { enum?: unknown[] }> };
}

export interface QuestionResult {
  id: string;
  audience: string;
  question: string;
  right: boolean;
  calls: number;
  characters: number;
  /** The tools called, in order. */
  tools: string[];
  /** The facts the answers did not carry. */
  missing: string[];
}

/** Words that pick the product tool's topic. */
const productTopicWords: [RegExp, string][] = [
  [/\b(price|pricing|cost)/i, 'pricing'],
  [/\bedition/i, 'editions'],
  [/\bgateway/i, 'payment_gateways'],
  [/\bfeature/i, 'features'],
];
/** Words that ask for code rather than a description. */
const codeWords = /\b(example|code|sample|snippet)\b/i;

function enumOf(tools: ListedTool[], tool: string, property: string): string[] {
  const values = tools.find((candidate) => candidate.name === tool)?.inputSchema.properties?.[property]?.enum ?? [];
  return values.filter((value): value is string => typeof value === 'string');
}

/** The first of `values` that the question names as a whole word. */
function named(question: string, values: string[]): string | undefined {
  const lower = question.toLowerCase();
  return values.find((value) => new RegExp(`(^|[^\\w-])${value.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`).test(lower));
}

/**
 * The plain agent of the evaluation, written down so anyone can check it: no language model, and
 * no look at the facts while it works.
 * 1. It picks a tool by name, with the values the tools' input schemas list: the product tool
 *    for editions, pricing, gateways or features; for a question that names an action,
 *    `code_sample` when it asks for code (in the language it names, curl otherwise), else
 *    `action_details`; for one that names a status, `lifecycle`.
 * 2. It always searches too (`search_docs` with the question as asked) and reads the passages
 *    the first page of results returns.
 * 3. When the first passage was cut at its bound, it reads that passage's section (`read_page`
 *    with the passage's URL), and nothing more. (Against a search that returns snippets rather
 *    than passages, as this server's did before, it reads the top two pages instead.)
 * The answer is right when the text the tools returned carries every fact of the question (facts.ts).
 */
export async function askAgent(question: EvaluationQuestion, tools: ListedTool[], call: CallTool): Promise<QuestionResult> {
  const texts: string[] = [];
  const called: string[] = [];
  const use = async (name: string, args: Record<string, unknown>) => {
    called.push(name);
    const text = await call(name, args);
    texts.push(text);
    return text;
  };
  const topic = productTopicWords.find(([pattern]) => pattern.test(question.question))?.[1];
  const action = named(question.question, enumOf(tools, 'action_details', 'action'));
  const status = named(question.question, enumOf(tools, 'lifecycle', 'status'));
  if (topic !== undefined && enumOf(tools, 'product_information', 'topic').includes(topic)) await use('product_information', { topic });
  else if (action !== undefined && codeWords.test(question.question)) {
    const languages = enumOf(tools, 'code_sample', 'language');
    await use('code_sample', { action, language: named(question.question, languages) ?? languages[0] });
  } else if (action !== undefined) await use('action_details', { action });
  else if (status !== undefined) await use('lifecycle', { status });
  const search = JSON.parse(await use('search_docs', { query: question.question })) as { results?: { url: string; text?: string; cut?: boolean }[] };
  const first = search.results?.[0];
  if (first !== undefined && first.text === undefined) {
    // A search that gives snippets rather than passages (the server before passages): read the top two pages.
    for (const result of search.results?.slice(0, 2) ?? []) await use('read_page', { url: result.url });
  } else if (first?.cut === true) await use('read_page', { url: first.url });
  const missing = missingFacts(question.facts, texts.join('\n')).map(factLabel);
  return {
    id: question.id,
    audience: question.audience,
    question: question.question,
    right: missing.length === 0,
    calls: called.length,
    characters: texts.reduce((sum, text) => sum + text.length, 0),
    tools: called,
    missing,
  };
}

export interface EvaluationSummary {
  questions: number;
  right: number;
  rightShare: number;
  medianCharacters: number;
  meanCalls: number;
  /** What tools/list costs once per session, beside the questions. */
  toolsListCharacters: number;
}

export function summarise(results: QuestionResult[], toolsListCharacters: number): EvaluationSummary {
  const right = results.filter((result) => result.right).length;
  return {
    questions: results.length,
    right,
    rightShare: Math.round((1000 * right) / Math.max(1, results.length)) / 10,
    medianCharacters: Math.round(median(results.map((result) => result.characters))),
    meanCalls: Math.round((10 * results.reduce((sum, result) => sum + result.calls, 0)) / Math.max(1, results.length)) / 10,
    toolsListCharacters,
  };
}
