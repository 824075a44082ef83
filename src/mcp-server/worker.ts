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

/**
 * The product-information server on Cloudflare Workers (workerd): the same fetch handler as the
 * Node process, over the same knowledge, the request check included: it runs the sandbox's stages
 * on the memory store, and reads the contract without Ajv (workerd compiles no code at run time;
 * the check validates no schema). The knowledge is built when the isolate starts, in the global
 * scope: Cloudflare gives that 1 s of CPU (its start-up limit) where it gives a request 10 ms on
 * the free plan, and building the knowledge takes about 200 ms, which in the first request would
 * have cut that request off on every new isolate.
 */
const { identity, source } = bundledKnowledge;
const handler = createProductInformationHandler(identity, knowledgeFrom(source, createRequestCheck(readExecutableContractWith(source.document, noSchemaValidator))));

export default {
  fetch(request: Request): Promise<Response> {
    return handler.fetch(request);
  },
};
