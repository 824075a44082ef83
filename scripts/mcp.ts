/**
 * `npm run mcp`: the read-only product-information server on 127.0.0.1, MCP at /mcp.
 *   npm run mcp -- [--port N] [--host ADDRESS] [--allowed-hosts NAME,…]   (or PORT=N, MCP_ALLOWED_HOSTS=NAME,…)
 * Listening on another address than loopback (`--host 0.0.0.0`), the server still answers only
 * requests whose Host names it: `{mcp_url}`'s host, loopback, and the names given here (the
 * machine's name or address as clients will write it).
 */
import { ContractRefusedError } from '../src/gate/gated-contract.ts';
import { ProductFactsError } from '../src/lib/product-facts.ts';
import path from 'node:path';
import { allowedHostsOption, allowedHostsVariable, cardPath, hostNamesFrom, startProductInformationServer } from '../src/mcp-server/http.ts';
import { SiteNotBuiltError } from '../src/mcp-server/load-knowledge.ts';
import { ensureBuiltSite } from '../src/host/built-site.ts';
import { scriptArguments } from './script-options.ts';

const usage = `Usage: npm run mcp -- [--port N] [--host ADDRESS] [${allowedHostsOption} NAME,…]   (or PORT=N, ${allowedHostsVariable}=NAME,…)`;
const { values } = scriptArguments(usage, { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, 'allowed-hosts': { type: 'string', multiple: true } });
const port = Number(values.port ?? process.env.PORT ?? 8788);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number.\n${usage}`);
  process.exit(2);
}
// One folder below the project, here or bundled in .generated/ (scripts/build-mcp-server.ts).
const projectDirectory = path.resolve(import.meta.dirname, '..');
try {
  // The server answers from the pages the build writes, so it builds them first when they are stale.
  ensureBuiltSite(projectDirectory, (line) => console.error(line));
  const host = values.host ?? '127.0.0.1';
  const allowedHosts = [...hostNamesFrom(process.env[allowedHostsVariable]), ...(values['allowed-hosts'] ?? []).flatMap(hostNamesFrom)];
  const server = await startProductInformationServer({ port, host, projectDirectory, allowedHosts });
  const origin = new URL(server.url).origin;
  console.log(`Product-information server (MCP, Streamable HTTP, read-only) at ${server.url}\nServer card at ${origin}${cardPath}`);
  if (new URL(server.url).hostname !== host) {
    console.log(`Listening on ${host}; a request's Host must be one of ${server.allowedHosts.join(', ')}. Add a name clients use for this machine with ${allowedHostsOption} or ${allowedHostsVariable}.`);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
} catch (error) {
  if (error instanceof ContractRefusedError || error instanceof ProductFactsError || error instanceof SiteNotBuiltError) {
    console.error(error.message);
    process.exit(1);
  }
  const listenFailure = listenFailureMessage(error, port, values.host ?? '127.0.0.1');
  if (listenFailure !== undefined) {
    console.error(listenFailure);
    process.exit(1);
  }
  throw error;
}

/** One line for an address the server cannot listen on, naming the option to change; undefined for any other error. */
function listenFailureMessage(error: unknown, port: number, host: string): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `Port ${port} is in use; pick another with --port.`;
  if (code === 'EACCES') return `Listening on port ${port} is not allowed here; pick another with --port (above 1023).`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Cannot listen on host "${host}": no such address on this machine; pick another with --host (127.0.0.1 unless told).`;
  return undefined;
}
