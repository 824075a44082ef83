import { createProductInformationHandler } from './handler.ts';
import type { ServerIdentity } from './identity.ts';
import { knowledgeFrom, type KnowledgeSource } from './knowledge.ts';

/** What the worker build bundles: the identity and the knowledge source the Node process reads from disk. */
export interface BundledKnowledge {
  identity: ServerIdentity;
  source: KnowledgeSource;
}

/** Set by the worker build (scripts/build-worker.ts) to what `readServerIdentity` and `readKnowledgeSource` return. */
declare const bundledKnowledge: BundledKnowledge;

type Handler = ReturnType<typeof createProductInformationHandler>;
let handler: Handler | undefined;

/**
 * The product-information server on Cloudflare Workers (workerd): the same fetch handler as the
 * Node process, over the same knowledge, without the request check (it needs the sandbox's
 * SQLite store, so its tool is not listed). The knowledge is built on the first request rather
 * than at start, where a worker's CPU time is limited the most.
 */
export default {
  fetch(request: Request): Promise<Response> {
    handler ??= createProductInformationHandler(bundledKnowledge.identity, knowledgeFrom(bundledKnowledge.source));
    return handler.fetch(request);
  },
};
