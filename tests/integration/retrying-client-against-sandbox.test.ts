/**
 * The retrying clients of the errors guide, run as printed against the sandbox: the sandbox
 * answers the first attempt as a host's firewall would, with a 429 and `Retry-After`, and the
 * client must wait that long, send the same request again and carry out the action. The waits
 * are measured where the sandbox receives the attempts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ReferenceModel } from '../../src/lib/contract/model.ts';
import { placeholdersIn } from '../../src/lib/samples/sample-parts.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { outcomeOf } from '../../src/lib/contract/lifecycle.ts';
import { retryingClientSamples } from '../../src/lib/samples/retrying-client-sample.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { wordpressRouteParameter } from '../../src/lib/contract/endpoint.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { baseUrlParts } from '../../src/lib/samples/retrying-client/client-parts.ts';
import { missingRunner, runSample } from '../support/run-sample.ts';

// Read at the top, so the tests can be declared per language the errors guide shows.
// The bundle the gate checked (`npm run lint`): the gate itself is tested elsewhere.
const contract = readExecutableContract(bundledDocument());
const model: ReferenceModel = contract.model;
/** The base URL the clients are printed with, which a reader replaces with their own. */
const siteBaseUrl = baseUrlParts(model.endpoint).example;


/**
 * Milliseconds a wait may run late, on top of what is asked. The lower bound is what the policy
 * demands; the upper one only catches a client that misreads the wait (minutes for seconds, its
 * own longest backoff for Retry-After), which waits far longer, and is kept far from what a busy
 * machine adds to a right one.
 */
const lateness = 5000;

/** Every language the errors guide has a retrying client in. */
const languages = retryingClientSamples(model.endpoint, sampleStatuses(model.responses), {}).map(({ language }) => ({ language, skip: missingRunner(language) }));

/** What a run of one language's client needs: the first action, a status that accepts it, the client and its key placeholder. */
function clientRun(language: string) {
  const [action] = model.actions;
  assert.ok(action, 'the contract has an action');
  const example = action.requestExample.value;
  const subscriptionId = Number(example[model.envelope.subject]);
  const accepting = model.lifecycle.states.find((state) => outcomeOf(action.transition, state).kind === 'changed');
  assert.ok(accepting, `some status accepts ${action.identifier}`);
  const sample = retryingClientSamples(model.endpoint, sampleStatuses(model.responses), example).find((candidate) => candidate.language === language);
  assert.ok(sample, `a ${language} retrying client`);
  const [keyPlaceholder] = placeholdersIn(example[model.envelope.credential]);
  assert.ok(keyPlaceholder, 'the example writes the key as a placeholder');
  return { action, subscriptionId, accepting, sample, keyPlaceholder };
}

describe('[7.1] the retrying clients honour the sandbox’s 429 and Retry-After', () => {
  for (const { language, skip } of languages) {
    test(`${language}: waits as Retry-After says, sends the same request again, and the action happens once`, { skip }, async () => {
      const { action, subscriptionId, accepting, sample, keyPlaceholder } = clientRun(language);

      const arrivals: { at: number; line: string }[] = [];
      const sandbox = await startSandbox({ port: 0, contract, seed: [{ id: subscriptionId, status: accepting }], log: (line) => arrivals.push({ at: performance.now(), line }) });
      try {
        const retryAfterSeconds = 2;
        sandbox.throttleNext(1, String(retryAfterSeconds));
        // The client is given the sandbox's base URL as the sandbox prints it, http:// and all.
        const code = sample.code.replaceAll(keyPlaceholder, sandbox.apiKey).replaceAll(JSON.stringify(siteBaseUrl), JSON.stringify(sandbox.url)).replaceAll(`'${siteBaseUrl}'`, `'${sandbox.url}'`);
        assert.ok(code.includes(sandbox.url), `the ${language} client is created with the base URL`);
        assert.ok(!code.includes(`${new URL(siteBaseUrl).protocol}//${new URL(sandbox.url).host}`), 'no scheme is rewritten: the base URL is used as written');
        const run = await runSample(sample, code, 60_000);
        assert.equal(run.exitCode, 0, `the client failed:\n${run.output}`);
        assert.equal(arrivals.length, 2, `one throttled attempt and one that succeeds:\n${arrivals.map((arrival) => arrival.line).join('\n')}`);
        const [throttled, accepted] = arrivals as [{ at: number; line: string }, { at: number; line: string }];
        assert.match(throttled.line, / -> 429\b/);
        assert.match(accepted.line, / -> 200\b/);
        const waited = accepted.at - throttled.at;
        assert.ok(waited >= retryAfterSeconds * 1000 && waited <= retryAfterSeconds * 1000 + lateness, `waited ${Math.round(waited)} ms after "Retry-After: ${retryAfterSeconds}"`);
        const target = outcomeOf(action.transition, accepting);
        assert.equal(target.kind, 'changed');
        const after = sandbox.subscriptions().find((subscription) => subscription.id === subscriptionId);
        assert.equal(after?.status, target.kind === 'changed' ? target.to : undefined, 'the action happened');
        assert.equal(sandbox.history(subscriptionId).length, 1, 'the throttled attempt changed nothing; the action is recorded once');
      } finally {
        await sandbox.close();
      }
    });

    test(`${language}: a base URL ending in ?rest_route=, for a site without pretty permalinks, reaches the route through the query`, { skip }, async () => {
      const { subscriptionId, accepting, sample, keyPlaceholder } = clientRun(language);
      const { plain } = baseUrlParts(model.endpoint);
      assert.ok(sample.code.includes(plain.example), `the ${language} client names the form ${plain.example}`);
      const lines: string[] = [];
      const sandbox = await startSandbox({ port: 0, contract, seed: [{ id: subscriptionId, status: accepting }], log: (line) => lines.push(line) });
      try {
        const base = `${sandbox.url}/?${wordpressRouteParameter}=`;
        const code = sample.code.replaceAll(keyPlaceholder, sandbox.apiKey).replaceAll(JSON.stringify(siteBaseUrl), JSON.stringify(base)).replaceAll(`'${siteBaseUrl}'`, `'${base}'`);
        assert.ok(code.includes(base), `the ${language} client is created with ${base}`);
        const run = await runSample(sample, code, 60_000);
        assert.equal(run.exitCode, 0, `the client failed:\n${run.output}`);
        assert.deepEqual(lines.map((line) => line.split(' -> ')[0]), [`${model.endpoint.method} /?${wordpressRouteParameter}=${plain.route}`], 'one request, to the route in the query');
        assert.match(lines[0] ?? '', / -> 200\b/);
      } finally {
        await sandbox.close();
      }
    });
  }
});
