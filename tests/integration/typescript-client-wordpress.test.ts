/**
 * The TypeScript client, packed and installed from its tarball, against the reference plugin in a
 * real WordPress (Debian's packages: MariaDB, Apache with mod_php): every action and its repeat,
 * the conflict with the actions the status allows, and the 400, 401 and 404, each as its class.
 * The host's answers (429, HTML pages, timeouts) are the sandbox test's: WordPress sends none.
 * Skipped, with the reason, on a machine without those packages.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { errorClassName, methodName, typescriptClientClassName } from '../../src/clients/typescript/generate.ts';
import type { Action } from '../../src/lib/contract/model.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { allowedActions, outcomeOf } from '../../src/lib/contract/lifecycle.ts';
import { loadGatedContract } from '../../src/sandbox/contract-gate.ts';
import type { Subscription } from '../../src/sandbox/store.ts';
import { pathsOf } from '../../src/wordpress/host-system.ts';
import { removeWordPressFiles, seedWordPress, startWordPress, stopWordPress, wordpressAvailable, wordpressStatus, type WordPressSite } from '../../src/wordpress/site.ts';
import { projectDirectory } from '../support/contract-copy.ts';
import { installTypescriptClient, type InstalledClient } from '../../src/clients/typescript/installed-package.ts';

const availability = wordpressAvailable();

type Fields = Record<string, unknown>;
type Client = Record<string, unknown>;
type ClientClass = new (baseUrl: string, key: string, options?: Record<string, unknown>) => Client;

if (!availability.available) test('the TypeScript client against a real WordPress', { skip: availability.reason }, () => {});

describe('the TypeScript client against the reference plugin in a real WordPress', { skip: !availability.available }, () => {
  let contract: ExecutableContract;
  let site: WordPressSite;
  let installed: InstalledClient;
  let library: Record<string, unknown>;
  let startedHere = false;
  let installedHere = false;
  const placed: Subscription[] = [];
  // Far from the seed's IDs and from the other WordPress tests' own.
  let nextId = 8000;
  const place = (status: string): number => {
    const id = nextId++;
    placed.push({ id, status });
    return id;
  };
  const cases: { action: Action; id: number; from: string; requested?: string }[] = [];
  let refusal: { action: Action; id: number; status: string } | undefined;
  let spareId = 0;

  function fieldsOf(action: Action, id: number): Fields {
    const { selector, credential, subject } = contract.model.envelope;
    const { [selector]: _selector, [credential]: _key, ...fields } = action.requestExample.value;
    return { ...fields, [subject]: id };
  }

  function client(key = site.apiKey): Client {
    return new (library[typescriptClientClassName] as ClientClass)(site.baseUrl, key, { pace: 0 });
  }

  function call(on: Client, action: Action, fields: Fields): Promise<Fields> {
    return (on[methodName(action.identifier)] as (fields: Fields) => Promise<Fields>).call(on, fields);
  }

  async function failure(promise: Promise<unknown>): Promise<Record<string, unknown> & Error> {
    return promise.then(
      () => assert.fail('the call succeeded'),
      (error: unknown) => error as Record<string, unknown> & Error,
    );
  }

  before(async () => {
    contract = await loadGatedContract(projectDirectory);
    installed = installTypescriptClient(contract);
    library = (await import(installed.entryUrl)) as Record<string, unknown>;
    startedHere = !(await wordpressStatus({ projectDirectory })).running;
    installedHere = startedHere && !existsSync(pathsOf(projectDirectory).dataDirectory);
    site = await startWordPress({ projectDirectory, ...(startedHere ? { port: 0 } : {}) });
    for (const action of contract.model.actions) {
      const example = action.requestExample.value;
      const requested = action.transition.kind === 'chosen' ? String(example[action.transition.field]) : undefined;
      const from = contract.model.lifecycle.states.find((state) => outcomeOf(action.transition, state, requested).kind === 'changed');
      assert.ok(from !== undefined);
      cases.push({ action, id: place(from), from, ...(requested === undefined ? {} : { requested }) });
    }
    const refused = contract.model.actions.find((action) => action.refusedStates.some((status) => allowedActions(contract.model.lifecycle, status).length > 0));
    const status = refused?.refusedStates.find((candidate) => allowedActions(contract.model.lifecycle, candidate).length > 0);
    if (refused !== undefined && status !== undefined) refusal = { action: refused, id: place(status), status };
    spareId = place(cases[0]?.from ?? '');
    await seedWordPress({ projectDirectory, seed: placed });
  });

  after(async () => {
    if (startedHere) await stopWordPress({ projectDirectory });
    if (installedHere) removeWordPressFiles({ projectDirectory });
    installed?.remove();
  });

  test('every action changes its subscription, and its repeat answers that nothing changed', async () => {
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

  test('a refused status: the conflict class with the actions the status allows', async () => {
    assert.ok(refusal !== undefined);
    const { transitionNotAllowed, currentStatusMember, allowedActionsMember } = contract.errors;
    const error = await failure(call(client(), refusal.action, fieldsOf(refusal.action, refusal.id)));
    assert.ok(error instanceof (library[errorClassName(transitionNotAllowed.status)] as new () => Error), String(error));
    const camel = (name: string) => name.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());
    assert.equal(error[camel(currentStatusMember)], refusal.status);
    assert.deepEqual(error[camel(allowedActionsMember)], allowedActions(contract.model.lifecycle, refusal.status));
  });

  test('a wrong key, an unknown subscription, a field no action takes: their classes and codes', async () => {
    const [first] = cases;
    assert.ok(first !== undefined);
    const { invalidKey, subscriptionNotFound, invalidParameter } = contract.errors;
    const wrongKey = await failure(call(client(`${site.apiKey}-wrong`), first.action, fieldsOf(first.action, spareId)));
    assert.ok(wrongKey instanceof (library[errorClassName(invalidKey.status)] as new () => Error), String(wrongKey));
    assert.equal(wrongKey.code, invalidKey.code);
    assert.ok(!wrongKey.message.includes(site.apiKey));
    const unknown = await failure(call(client(), first.action, fieldsOf(first.action, 2_147_483_000)));
    assert.ok(unknown instanceof (library[errorClassName(subscriptionNotFound.status)] as new () => Error), String(unknown));
    assert.equal(unknown.code, subscriptionNotFound.code);
    const on = client() as { action(name: string, fields: Fields): Promise<Fields> };
    const extra = await failure(on.action(first.action.identifier, { ...fieldsOf(first.action, spareId), a_field_no_release_has: 1 }));
    assert.ok(extra instanceof (library[errorClassName(invalidParameter.status)] as new () => Error), String(extra));
    assert.equal(extra.code, invalidParameter.code);
  });
});
