import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { answerRequest } from '../sandbox/answer-request.ts';
import { utf8Bytes } from '../sandbox/bytes.ts';
import { createMemoryStore } from '../sandbox/memory-store.ts';
import type { RequestCheck } from './knowledge.ts';

/** The host a checked request is addressed to; the stages only need one to be there. */
const checkedHost = 'shop.example';
/** The subscription a body names when it names none the store could hold. */
const fallbackSubscriptionId = 1;

function subscriptionIdOf(contract: ExecutableContract, body: unknown): number {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[contract.model.envelope.subject] : undefined;
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : fallbackSubscriptionId;
}

/**
 * The request check runs the sandbox itself: the body goes through `answerRequest`, WordPress
 * core's checks and the plugin's, against the sandbox's memory store holding one subscription, the one
 * the body names, in `currentStatus`. There is no second copy of the rules to drift apart. The
 * site's key is the body's own key unless the caller asks what a wrong key gets. Nothing in it
 * needs Node, so the server on workerd has the tool too.
 */
export function createRequestCheck(contract: ExecutableContract): RequestCheck {
  const { envelope, endpoint, lifecycle } = contract.model;
  return (body, currentStatus, keyAccepted) => {
    const sentKey = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[envelope.credential] : undefined;
    const siteKey = typeof sentKey === 'string' && sentKey !== '' && keyAccepted ? sentKey : `${String(sentKey)} is not this site's key`;
    const store = createMemoryStore(lifecycle.states);
    store.addMissing([{ id: subscriptionIdOf(contract, body), status: currentStatus }]);
    const answer = answerRequest(contract, store, { apiKey: siteKey, basePath: '' }, {
      method: endpoint.method,
      target: endpoint.urlPath,
      headers: { host: checkedHost, 'content-type': 'application/json' },
      body: utf8Bytes(JSON.stringify(body)),
      tooLarge: false,
    });
    return { status: answer.status, body: answer.body === '' ? null : (JSON.parse(answer.body) as unknown) };
  };
}
