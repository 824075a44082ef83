import { readFileSync } from 'node:fs';
import { isRecord } from '../lib/contract/document.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { listInWords } from '../lib/prose.ts';
import type { Lifecycle } from '../lib/contract/model.ts';
import { workflowSubscriptions } from '../lib/workflows/workflow-plan.ts';
import type { Subscription } from './store.ts';

/** The key the sandbox accepts unless told another: visibly not a secret. */
export const defaultApiKey = 'sandbox-key-not-a-secret';

/** With no seed file, one subscription in every status, numbered from 1 in the order of the statuses. */
export function defaultSeed(lifecycle: Lifecycle): Subscription[] {
  return lifecycle.states.map((status, index) => ({ id: index + 1, status }));
}

export class SeedError extends Error {
  constructor(source: string, problems: string[]) {
    super(`${source}: the seed is not usable:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'SeedError';
  }
}

const seedShape = '[{"id": 1, "status": "active"}, ...]';

/**
 * Checks a seed (`[{"id": 1, "status": "active"}, ...]`) against the contract: each `id` as the
 * document's subscription ID allows, each `status` one of its statuses, no ID twice, nothing
 * else. Every problem is listed, each with the item it is in.
 */
export function checkSeed(contract: ExecutableContract, value: unknown, source: string): Subscription[] {
  if (!Array.isArray(value)) throw new SeedError(source, [`expected a JSON array such as ${seedShape}`]);
  const { states } = contract.model.lifecycle;
  const subjectField = contract.model.envelope.sharedFields.find((field) => field.name === contract.model.envelope.subject);
  const validId = subjectField === undefined ? undefined : contract.schemas.schemaAt(subjectField.pointer);
  const problems: string[] = [];
  const seen = new Set<number>();
  const subscriptions: Subscription[] = [];
  value.forEach((item: unknown, index) => {
    const where = `item ${index + 1}`;
    if (!isRecord(item)) {
      problems.push(`${where}: expected an object such as {"id": 1, "status": "active"}`);
      return;
    }
    const { id, status, ...others } = item;
    for (const name of Object.keys(others)) problems.push(`${where}: "${name}" is not a member of a seed item; use only "id" and "status"`);
    const idOk = typeof id === 'number' && Number.isSafeInteger(id) && (validId === undefined || validId(id));
    if (typeof id === 'number' && Number.isInteger(id) && !Number.isSafeInteger(id)) {
      // JSON.parse has already rounded such an id, so printing it would name another subscription.
      problems.push(`${where}: "id" is past ${Number.MAX_SAFE_INTEGER} (2^53 - 1), the largest whole number a seed holds exactly`);
    } else if (!idOk) problems.push(`${where}: "id" is ${JSON.stringify(id) ?? 'missing'}; expected a subscription ID, a whole number of at least 1`);
    else if (seen.has(id)) problems.push(`${where}: the id ${id} appears twice`);
    const statusOk = typeof status === 'string' && states.includes(status);
    if (!statusOk) problems.push(`${where}: "status" is ${JSON.stringify(status) ?? 'missing'}; expected one of ${listInWords(states, 'or')}`);
    if (idOk && statusOk && !seen.has(id)) subscriptions.push({ id, status });
    if (idOk) seen.add(id);
  });
  if (problems.length > 0) throw new SeedError(source, problems);
  return subscriptions;
}

/** Reads and checks a seed file, or says what is wrong with it. */
export function readSeedFile(contract: ExecutableContract, file: string): Subscription[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SeedError(file, [`cannot be read: ${(error as Error).message}`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SeedError(file, [`is not JSON: ${(error as Error).message}`]);
  }
  return checkSeed(contract, value, file);
}

interface ExampleStart {
  action: string;
  /** Whether the example is the action's own success example, not one of its further ones. */
  main: boolean;
  id: number;
  status: string;
}

/** Each success example that names its subscription and the status it moves it from (`previous_status`). */
function startsOfExamples(contract: ExecutableContract): ExampleStart[] {
  const { result, model } = contract;
  return model.actions.flatMap((action) =>
    [action.successExample, ...action.moreSuccessExamples].flatMap((example, index) => {
      const value: unknown = example.value;
      if (!isRecord(value)) return [];
      const id = value[result.subject];
      const status = value[result.previousStatus];
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof status !== 'string' || !model.lifecycle.states.includes(status)) return [];
      return [{ action: action.identifier, main: index === 0, id, status }];
    }),
  );
}

/**
 * The subscriptions the contract's success examples name, each in the status its first example
 * moves it from (`previous_status`): added to the seed of the sandbox in the pages, so that the
 * examples a reader sends answer as the examples say.
 */
export function exampleSubscriptions(contract: ExecutableContract): Subscription[] {
  const found = new Map<number, string>();
  for (const { id, status } of startsOfExamples(contract)) if (!found.has(id)) found.set(id, status);
  return [...found].map(([id, status]) => ({ id, status }));
}

/** The statuses the examples' subscriptions start from, by subscription ID and then by action. */
export type ExampleStarts = ReadonlyMap<number, ReadonlyMap<string, string>>;

/**
 * For each action, the status its success example moves its subscription from (`previous_status`),
 * by the subscription's ID: several actions' examples name one subscription from different
 * statuses (the pause example's from the resume example's), which one seeded status cannot serve.
 */
export function exampleStarts(contract: ExecutableContract): ExampleStarts {
  const starts = new Map<number, Map<string, string>>();
  for (const { action, main, id, status } of startsOfExamples(contract)) {
    if (!main) continue;
    const byAction = starts.get(id) ?? new Map<string, string>();
    byAction.set(action, status);
    starts.set(id, byAction);
  }
  return starts;
}

/**
 * What a sandbox holds when it is given no seed, in the terminal and in the pages alike: one
 * subscription in every status (IDs 1 up), the subscriptions the examples name, in the status
 * they answer from, so that a sample pointed at a local sandbox answers as the page shows it, and
 * one subscription for each workflow of the published Arazzo description, in the status it starts
 * from, so that every workflow runs green once against a new sandbox given only its address and key.
 */
export function sandboxSeed(contract: ExecutableContract): Subscription[] {
  const seed = defaultSeed(contract.model.lifecycle);
  const taken = (id: number): boolean => seed.some((subscription) => subscription.id === id);
  for (const example of exampleSubscriptions(contract)) if (!taken(example.id)) seed.push(example);
  for (const { id, status } of workflowSubscriptions(contract)) if (!taken(id)) seed.push({ id, status });
  return seed;
}
