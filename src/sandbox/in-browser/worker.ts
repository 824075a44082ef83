import type { OpenApiDocument } from '../../lib/contract/document.ts';
import { noSchemaValidator, readExecutableContractWith } from '../../lib/contract/serving-contract.ts';
import type { WorkerQuestion, WorkerReply } from './protocol.ts';
import type { Simulation } from './simulation.ts';
import { createSimulation } from './simulation.ts';

/** The contract document, bundled by scripts/build-sandbox-worker.ts after the gate passed it. */
declare const bundledDocument: OpenApiDocument;

interface WorkerScope {
  onmessage: ((event: { data: WorkerQuestion }) => void) | null;
  postMessage(reply: WorkerReply): void;
}

const scope = globalThis as unknown as WorkerScope;
const contract = readExecutableContractWith(bundledDocument, noSchemaValidator);
let simulation: Simulation | undefined;

function reply(id: number, current: Simulation, extra: Partial<WorkerReply> = {}): void {
  scope.postMessage({ id, state: current.state(), subscriptions: current.subscriptions(), apiKey: current.apiKey, ...extra });
}

/**
 * The sandbox in a dedicated worker of the page: it answers the panel's messages and nothing
 * else. It fetches nothing and imports nothing (its policy is `default-src 'none'`).
 */
scope.onmessage = ({ data: question }) => {
  if (question.kind === 'start' || simulation === undefined) {
    try {
      simulation = createSimulation(contract, question.kind === 'start' ? question.state : undefined);
    } catch (error) {
      simulation = createSimulation(contract);
      reply(question.id, simulation, { problem: `The saved state was not usable, so the sandbox starts from its seed: ${(error as Error).message}` });
      return;
    }
    if (question.kind === 'start') {
      reply(question.id, simulation);
      return;
    }
  }
  switch (question.kind) {
    case 'send': {
      const started = performance.now();
      const answer = simulation.send(question.request);
      reply(question.id, simulation, { answer, elapsedMs: performance.now() - started });
      return;
    }
    case 'throttle':
      simulation.throttleNext(question.count, question.retryAfter);
      break;
    case 'host-error':
      simulation.hostErrorNext(question.count, question.status);
      break;
    case 'reset':
      simulation.reset();
      break;
  }
  reply(question.id, simulation);
};
