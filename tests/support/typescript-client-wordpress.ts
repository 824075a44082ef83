/**
 * The TypeScript client, packed and installed from its tarball, against the reference plugin in a
 * real WordPress: every action and its repeat, the conflict with the actions the status allows, and
 * the 400, 401 and 404, each as its class. The host's answers (429, HTML pages, timeouts) are the
 * sandbox test's: WordPress sends none. It runs inside tests/integration/wordpress-reference.test.ts,
 * which starts and stops the one site: two files sharing it could stop it under each other.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { errorClassName, methodName, typescriptClientClassName } from '../../src/clients/typescript/generate.ts';
import { installTypescriptClient } from '../../src/clients/typescript/installed-package.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { allowedActions, outcomeOf } from '../../src/lib/contract/lifecycle.ts';
import type { Action } from '../../src/lib/contract/model.ts';
import type { Subscription } from '../../src/sandbox/store.ts';
import { camelCaseName } from '../../src/lib/samples/client-libraries.ts';
import { seedWordPress, type WordPressSite } from '../../src/wordpress/site.ts';
import { projectDirectory } from './contract-copy.ts';

type Fields = Record<string, unknown>;
type Client = Record<string, unknown>;
type ClientClass = new (baseUrl: string, key: string, options?: Record<string, unknown>) => Client;

async function failure(promise: Promise<unknown>): Promise<Record<string, unknown> & Error> {
  return promise.then(
    () => assert.fail('the call succeeded'),
    (error: unknown) => error as Record<string, unknown> & Error,
  );
}

/** Runs the client's cases against `site`, on subscriptions it places from `firstId` on, each as a subtest of `context`. */
export async function checkTypescriptClientInWordPress(context: TestContext, site: WordPressSite, contract: ExecutableContract, firstId = 8000): Promise<void> {
  const installed = installTypescriptClient(contract);
  try {
    const library = (await import(installed.entryUrl)) as Record<string, unknown>;
    const placed: Subscription[] = [];
    let nextId = firstId;
    const place = (status: string): number => {
      const id = nextId++;
      placed.push({ id, status });
      return id;
    };
    const cases: { action: Action; id: number; from: string; requested?: string }[] = [];
    for (const action of contract.model.actions) {
      const example = action.requestExample.value;
      const requested = action.transition.kind === 'chosen' ? String(example[action.transition.field]) : undefined;
      const from = contract.model.lifecycle.states.find((state) => outcomeOf(action.transition, state, requested).kind === 'changed');
      assert.ok(from !== undefined);
      cases.push({ action, id: place(from), from, ...(requested === undefined ? {} : { requested }) });
    }
    const refused = contract.model.actions.find((action) => action.refusedStates.some((status) => allowedActions(contract.model.lifecycle, status).length > 0));
    const refusedStatus = refused?.refusedStates.find((candidate) => allowedActions(contract.model.lifecycle, candidate).length > 0);
    const refusal = refused !== undefined && refusedStatus !== undefined ? { action: refused, id: place(refusedStatus), status: refusedStatus } : undefined;
    const spareId = place(cases[0]?.from ?? '');
    await seedWordPress({ projectDirectory, seed: placed });

    const fieldsOf = (action: Action, id: number): Fields => {
      const { selector, credential, subject } = contract.model.envelope;
      const { [selector]: _selector, [credential]: _key, ...fields } = action.requestExample.value;
      return { ...fields, [subject]: id };
    };
    const client = (key = site.apiKey): Client => new (library[typescriptClientClassName] as ClientClass)(site.baseUrl, key, { pace: 0 });
    const call = (on: Client, action: Action, fields: Fields): Promise<Fields> => (on[methodName(action.identifier)] as (fields: Fields) => Promise<Fields>).call(on, fields);
    const classOf = (status: string | number) => library[errorClassName(Number(status))] as new () => Error;

    await context.test('every action changes its subscription, and its repeat answers that nothing changed', async () => {
      const { result } = contract;
      const on = client();
      for (const { action, id, from, requested } of cases) {
        const answer = await call(on, action, fieldsOf(action, id));
        const outcome = outcomeOf(action.transition, from, requested);
        assert.equal(answer[result.action], action.identifier);
        assert.equal(answer[result.previousStatus], from);
        assert.equal(answer[result.status], outcome.kind === 'changed' ? outcome.to : undefined);
        assert.equal(answer[result.changed], true);
        const repeated = await call(on, action, fieldsOf(action, id));
        assert.equal(repeated[result.changed], false, `${action.identifier} repeated`);
      }
    });

    await context.test('a refused status: the conflict class with the actions the status allows', async () => {
      assert.ok(refusal !== undefined);
      const { transitionNotAllowed, currentStatusMember, allowedActionsMember } = contract.errors;
      const error = await failure(call(client(), refusal.action, fieldsOf(refusal.action, refusal.id)));
      assert.ok(error instanceof classOf(transitionNotAllowed.status), String(error));
      assert.equal(error[camelCaseName(currentStatusMember)], refusal.status);
      assert.deepEqual(error[camelCaseName(allowedActionsMember)], allowedActions(contract.model.lifecycle, refusal.status));
    });

    await context.test('a wrong key, an unknown subscription, a field no action takes: their classes and codes', async () => {
      const [first] = cases;
      assert.ok(first !== undefined);
      const { invalidKey, subscriptionNotFound, invalidParameter } = contract.errors;
      const wrongKey = await failure(call(client(`${site.apiKey}-wrong`), first.action, fieldsOf(first.action, spareId)));
      assert.ok(wrongKey instanceof classOf(invalidKey.status), String(wrongKey));
      assert.equal(wrongKey.code, invalidKey.code);
      assert.ok(!wrongKey.message.includes(site.apiKey));
      const unknown = await failure(call(client(), first.action, fieldsOf(first.action, 2_147_483_000)));
      assert.ok(unknown instanceof classOf(subscriptionNotFound.status), String(unknown));
      assert.equal(unknown.code, subscriptionNotFound.code);
      const on = client() as { action(name: string, fields: Fields): Promise<Fields> };
      const extra = await failure(on.action(first.action.identifier, { ...fieldsOf(first.action, spareId), a_field_no_release_has: 1 }));
      assert.ok(extra instanceof classOf(invalidParameter.status), String(extra));
      assert.equal(extra.code, invalidParameter.code);
    });
  } finally {
    installed.remove();
  }
}
