import path from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { ContractRefusedError, loadGatedContract } from '../gate/gated-contract.ts';
import { escapeMarkup } from '../lib/http/escape-markup.ts';

/** Set once a dev server of this process follows the contract; it outlives the configuration's modules, which a restart evaluates anew. */
const watching = Symbol.for('subscription-lifecycle-docs.contract-watch');

/**
 * Whether `astro.config.mjs` is being evaluated again by a running `astro dev` (a restart) rather
 * than by a new process: then a refused contract must not end the process, only that restart,
 * which Astro reports and survives with the configuration it had.
 */
export function devServerFollowsContract(): boolean {
  return (globalThis as Record<symbol, unknown>)[watching] === true;
}

/** Files are often saved in several writes; the gate runs once they have settled. */
const settleMilliseconds = 150;

/**
 * What `astro dev` serves in place of every page while the contract fails the gate: the gate's
 * lines, and Vite's client, which reloads the page once the contract passes again.
 */
export function refusalPage(message: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The contract fails the gate</title>',
    '<script type="module" src="/@vite/client"></script></head>',
    `<body><h1>The contract fails the gate</h1><pre>${escapeMarkup(message)}</pre></body></html>`,
  ].join('');
}

/**
 * `astro dev` follows `openapi/`: on any change the gate runs again. When it passes, the dev
 * server restarts as when its configuration changes (Astro re-reads `astro.config.mjs`, which
 * loads the contract anew for the sidebar and every page) and the open pages reload. When it
 * refuses, the gate's lines (file: line N: message) go to the dev log and to Vite's error overlay,
 * and every page answers with them, status 500, until the contract passes: never the old pages
 * as if nothing had happened.
 */
export function contractWatch(options: { projectDirectory: string; configFile: string }): Plugin {
  const openapiDirectory = path.join(options.projectDirectory, 'openapi');
  let refusal: string | undefined;
  return {
    name: 'contract-watch',
    apply: 'serve',
    configureServer(server: ViteDevServer) {
      (globalThis as Record<symbol, unknown>)[watching] = true;
      server.watcher.add(openapiDirectory);
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<void> = Promise.resolve();

      const check = async (): Promise<void> => {
        try {
          await loadGatedContract(options.projectDirectory);
        } catch (error) {
          if (!(error instanceof ContractRefusedError)) throw error;
          refusal = error.message;
          server.config.logger.error(error.message, { timestamp: true });
          server.ws.send({ type: 'error', err: { message: error.message, stack: '', plugin: 'contract-watch' } });
          return;
        }
        refusal = undefined;
        server.config.logger.info('The contract passes the gate: restarting with it.', { timestamp: true });
        // Astro restarts its dev server when its configuration file changes; the contract is read there.
        server.watcher.emit('change', options.configFile);
      };

      const changed = (file: string): void => {
        if (!file.startsWith(`${openapiDirectory}${path.sep}`)) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          running = running.then(check).catch((error: unknown) => {
            server.config.logger.error(`The contract could not be checked: ${error instanceof Error ? error.message : String(error)}`, { timestamp: true });
          });
        }, settleMilliseconds);
      };
      server.watcher.on('change', changed);
      server.watcher.on('add', changed);
      server.watcher.on('unlink', changed);

      server.middlewares.use((request, response, next) => {
        const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
        if (refusal === undefined || !wantsPage) return next();
        response.statusCode = 500;
        response.setHeader('Content-Type', 'text/html; charset=utf-8');
        response.end(refusalPage(refusal));
      });
    },
  };
}
