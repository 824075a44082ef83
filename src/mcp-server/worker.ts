import { createProductInformationHandler } from './handler.ts';
import type { ServerIdentity } from './identity.ts';
import { noSchemaValidator, readExecutableContractWith } from '../lib/contract/serving-contract.ts';
import { knowledgeFrom, type KnowledgeSource } from './knowledge.ts';
import { createRequestCheck } from './request-check.ts';

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
 * Node process, over the same knowledge, the request check included: it runs the sandbox's stages
 * on the memory store, and reads the contract without Ajv (workerd compiles no code at run time;
 * the check validates no schema). The knowledge is built on the first request rather than at
 * start, where a worker's CPU time is limited the most.
 */
export default {
  fetch(request: Request): Promise<Response> {
    const { identity, source } = bundledKnowledge;
    handler ??= createProductInformationHandler(identity, knowledgeFrom(source, createRequestCheck(readExecutableContractWith(source.document, noSchemaValidator))));
    return handler.fetch(request);
  },
};
