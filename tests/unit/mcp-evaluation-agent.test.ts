/**
 * The plain agent of the published evaluation: which tools it picks for a question, when it reads
 * on, and how it judges an answer, against a stand-in server that records the calls.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { askAgent, comparable, summarise, type ListedTool } from '../../src/mcp-server/evaluation/agent.ts';
import { holds, listed, missingFacts, near, says, type Fact } from '../../src/mcp-server/evaluation/facts.ts';

const tools: ListedTool[] = [
  { name: 'action_details', inputSchema: { properties: { action: { enum: ['pause_subscription', 'change_status'] } } } },
  { name: 'lifecycle', inputSchema: { properties: { status: { enum: ['active', 'on-hold'] } } } },
  { name: 'code_sample', inputSchema: { properties: { action: { enum: ['pause_subscription'] }, language: { enum: ['curl', 'python'] } } } },
  { name: 'product_information', inputSchema: { properties: { topic: { enum: ['editions', 'pricing'] } } } },
  { name: 'search_docs', inputSchema: {} },
  { name: 'read_page', inputSchema: {} },
];

function server(searchAnswer: unknown) {
  const calls: [string, Record<string, unknown>][] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    calls.push([name, args]);
    return name === 'search_docs' ? JSON.stringify(searchAnswer) : `answer of ${name} with **Retry-After** and \`api_key\``;
  };
  return { calls, call };
}

const question = (text: string, facts: Fact[] = [says('api_key')]) => ({ id: 'q', audience: 'integrator' as const, question: text, facts });
const passages = { results: [{ url: 'https://docs.example/a/#b', text: 'a passage' }] };

describe('the plain agent', () => {
  test('picks the tool a question names, then searches', async () => {
    const cases: [string, [string, Record<string, unknown>]][] = [
      ['Give me a python example for pause_subscription', ['code_sample', { action: 'pause_subscription', language: 'python' }]],
      ['Show me code for pause_subscription', ['code_sample', { action: 'pause_subscription', language: 'curl' }]],
      ['What fields does change_status need?', ['action_details', { action: 'change_status' }]],
      ['What can I do with an on-hold subscription?', ['lifecycle', { status: 'on-hold' }]],
      ['How much does it cost?', ['product_information', { topic: 'pricing' }]],
    ];
    for (const [text, expected] of cases) {
      const { calls, call } = server(passages);
      await askAgent(question(text), tools, call);
      assert.deepEqual(calls, [expected, ['search_docs', { query: text }]], text);
    }
  });

  test('a question that names nothing only searches; a cut first passage is read as its section', async () => {
    const plain = server(passages);
    await askAgent(question('Where does the key go?'), tools, plain.call);
    assert.deepEqual(plain.calls.map(([name]) => name), ['search_docs']);
    const cut = server({ results: [{ url: 'https://docs.example/a/#b', text: 'a part', cut: true }] });
    await askAgent(question('Where does the key go?'), tools, cut.call);
    assert.deepEqual(cut.calls.at(-1), ['read_page', { url: 'https://docs.example/a/#b' }]);
  });

  test('against snippets rather than passages it reads the top two pages', async () => {
    const { calls, call } = server({ results: [{ url: '/one/', snippet: 's' }, { url: '/two/', snippet: 's' }, { url: '/three/', snippet: 's' }] });
    await askAgent(question('Where does the key go?'), tools, call);
    assert.deepEqual(calls.slice(1), [['read_page', { url: '/one/' }], ['read_page', { url: '/two/' }]]);
  });

  test('an answer is right when every fact is in what the tools said, whatever the Markdown marks and case; wrong otherwise, with what it missed', async () => {
    const right = await askAgent(question('What fields does change_status need?', [says('API_KEY'), says('retry-after')]), tools, server(passages).call);
    assert.equal(right.right, true);
    assert.equal(right.calls, 2);
    assert.equal(right.characters, `answer of action_details with **Retry-After** and \`api_key\``.length + JSON.stringify(passages).length);
    const wrong = await askAgent(question('What fields does change_status need?', [says('api_key'), says('webhook')]), tools, server(passages).call);
    assert.equal(wrong.right, false);
    assert.deepEqual(wrong.missing, ['webhook']);
    assert.equal(comparable('A `code` and **bold**\\n"quoted\\"'), 'a code and bold "quoted"');
  });

  test('the summary: share right, median characters, mean calls', () => {
    const result = (right: boolean, characters: number, calls: number) => ({ id: '', audience: '', question: '', right, characters, calls, tools: [], missing: [] });
    assert.deepEqual(summarise([result(true, 100, 1), result(false, 300, 2), result(true, 200, 3)], 50), { questions: 3, right: 2, rightShare: 66.7, medianCharacters: 200, meanCalls: 2, toolsListCharacters: 50 });
  });
});

describe('the facts of an answer', () => {
  test('a phrase is found whatever the Markdown marks and case', () => {
    assert.equal(holds(says('No OAuth 2.0 flow'), 'There is **no `OAuth 2.0` flow**.'), true);
    assert.equal(holds(says('no OAuth 2.0 flow'), 'OAuth 2.0 is not used.'), false);
  });

  test('terms bound together count only within their distance, on either side', () => {
    const limit = near(40, 'note', 'at most 500 characters');
    assert.equal(holds(limit, '| `note` string optional | Optional text. at most 500 characters |'), true);
    assert.equal(holds(limit, '"name":"note" … ' + 'x'.repeat(60) + ' "status": 500, at most 500 characters of another field'), false);
    assert.equal(holds(near(10, '401', 'service_invalid_api_key'), 'service_invalid_api_key answers 401'), true);
    assert.equal(holds(near(5, 'POST', 'https://{site}/x'), '"endpoint":"https://{site}/x","method":"POST"'), false);
  });

  test('a list holds every item after its label, up to its end, and none of the excluded', () => {
    const accepted = listed(['"acceptedFrom":[', 'Accepts a subscription that is'], ['active'], ['pending', 'on-hold']);
    assert.equal(holds(accepted, '{"acceptedFrom":["active"],"refusedFrom":["pending","on-hold"]}'), true);
    assert.equal(holds(accepted, 'Accepts a subscription that is `active` and leaves it `on-hold`.'), true);
    assert.equal(holds(accepted, '{"acceptedFrom":["active","on-hold"]}'), false, 'a refused status among the accepted ones');
    assert.equal(holds(accepted, 'statuses: pending, trial, active, on-hold'), false, 'a list without its label');
    assert.equal(holds(listed(['one of'], ['pending'], []), 'one of pending-cancel, active'), false, 'pending is not pending-cancel');
    const links = 'picks one of these:\n- [`a` Does A](https://x.example/a/)\n- [`b` Does B](https://x.example/b/)';
    assert.equal(holds(listed(['one of'], ['a', 'b'], []), links), true, "a Markdown link's ] does not end the list");
    assert.equal(holds(listed(['one of'], ['a', 'b'], []), '["a"], then ["b"]'), false, "a JSON array's ] does");
  });

  test('missingFacts names what an answer lacks', () => {
    assert.deepEqual(missingFacts([says('api_key'), says('webhook')], 'the api_key field'), [says('webhook')]);
  });
});
