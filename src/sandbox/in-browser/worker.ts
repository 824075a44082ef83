import type { OpenApiDocument } from '../../lib/contract/document.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { noSchemaValidator, readExecutableContractWith } from '../../lib/contract/serving-contract.ts';
import { defaultRetryAfterSeconds, hostErrorHeader, hostErrorStatuses, maxThrottledRequests, throttleHeader } from '../host.ts';
import { routeArguments } from '../../lib/contract/route-arguments.ts';
import type { PanelContract, WorkerQuestion, WorkerReply } from './protocol.ts';
import type { Simulation } from './simulation.ts';
import { createSimulation } from './simulation.ts';

/** The contract document, bundled by src/sandbox/in-browser/bundle.ts after the gate passed it. */
declare const bundledDocument: OpenApiDocument;

interface WorkerScope {
  onmessage: ((event: { data: WorkerQuestion }) => void) | null;
  postMessage(reply: WorkerReply): void;
}

const scope = globalThis as unknown as WorkerScope;
const contract = readExecutableContractWith(bundledDocument, noSchemaValidator);
let simulation: Simulation | undefined;

function panelContract({ model, result }: ExecutableContract): PanelContract {
  const { endpoint, envelope } = model;
  return {
    method: endpoint.method,
    urlPath: endpoint.urlPath,
    credential: envelope.credential,
    selector: envelope.selector,
    subject: envelope.subject,
    members: { changed: result.changed, status: result.status },
    examples: Object.fromEntries(model.actions.map((action) => [action.identifier, action.requestExample.value])),
    throttleHeader,
    hostErrorHeader,
    hostErrorStatuses,
    maxThrottled: maxThrottledRequests,
    retryAfterDefault: String(defaultRetryAfterSeconds),
    states: model.lifecycle.states,
    enums: Object.fromEntries(routeArguments(contract).flatMap((argument) => (argument.schema.enum === undefined ? [] : [[argument.name, argument.schema.enum]]))),
  };
}

function reply(id: number, current: Simulation, extra: Partial<WorkerReply> = {}): void {
  scope.postMessage({ id, state: current.state(), subscriptions: current.subscriptions(), apiKey: current.apiKey, ...extra });
}

function start(question: WorkerQuestion): Simulation {
  try {
    simulation = createSimulation(contract, question.kind === 'start' ? question.state : undefined, question.kind === 'start' ? question.siteUrl : undefined);
    if (question.kind === 'start') reply(question.id, simulation, { contract: panelContract(contract) });
  } catch {
    // The reader is told what happened, not the engine's message about the tampered or older state.
    simulation = createSimulation(contract);
    reply(question.id, simulation, { contract: panelContract(contract), problem: 'The state this tab kept was not usable, so the sandbox starts from its seed.' });
  }
  return simulation;
}

/**
 * The sandbox in a dedicated worker of the page: it answers the panel's messages and nothing
 * else. It fetches nothing and imports nothing (its policy is `default-src 'none'`).
 */
scope.onmessage = ({ data: question }) => {
  if (question.kind === 'start') {
    start(question);
    return;
  }
  const current = simulation ?? start(question);
  switch (question.kind) {
    case 'send': {
      const started = performance.now();
      const answer = current.send(question.request);
      reply(question.id, current, { answer, elapsedMs: performance.now() - started });
      return;
    }
    case 'check':
      reply(question.id, current, { answer: current.check(question.request) });
      return;
    case 'throttle':
      current.throttleNext(question.count, question.retryAfter);
      break;
    case 'host-error':
      current.hostErrorNext(question.count, question.status);
      break;
    case 'reset':
      current.reset();
      break;
  }
  reply(question.id, current);
};
