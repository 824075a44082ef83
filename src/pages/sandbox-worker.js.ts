import type { APIRoute } from 'astro';
import { loadBundledDocument } from '../lib/contract/document.ts';
import { bundleSandboxWorker } from '../sandbox/in-browser/bundle.ts';

/**
 * The sandbox the action pages run in a dedicated worker when the reader first presses "Try it",
 * bundled from the contract the build publishes. Nothing fetches it before that click.
 */
export const GET: APIRoute = async () =>
  new Response(await bundleSandboxWorker(loadBundledDocument()), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
  });
