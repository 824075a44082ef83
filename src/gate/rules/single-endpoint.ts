import type { ContractRule } from './contract-rule.ts';
import { quoteList } from './contract-rule.ts';

/** Where the endpoint lives, server and path together (rules 4.1b and 9.1). */
export const endpointPath = '/wp-json/service/v1/action';

/** Splits a server URL template such as `https://{site}/wp-json/service/v1`. */
export function splitServerUrl(url: string): { scheme: string; host: string; path: string } | undefined {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/.exec(url);
  if (match === null) return undefined;
  return { scheme: (match[1] ?? '').toLowerCase(), host: match[2] ?? '', path: match[3] ?? '' };
}

export const singleEndpointRule: ContractRule = {
  name: 'single-endpoint',
  rule: 'Exactly one endpoint, POST https://{site}/wp-json/service/v1/action, with the version in the path.',
  rules: ['1.2', '4.1b', '4.1-r1', '9.1'],
  check({ document }, report) {
    const paths = Object.keys(document.paths ?? {});
    if (paths.length !== 1) {
      report({
        location: '#/paths',
        message:
          paths.length === 0
            ? 'The document declares no path; the service has exactly one endpoint, /action under the server.'
            : `The document declares ${paths.length} paths (${quoteList(paths)}); the service has exactly one endpoint, so there must be exactly one path.`,
      });
    }
    const servers = document.servers ?? [];
    if (servers.length === 0) {
      report({ location: '#', message: `The document declares no server, so its path does not resolve to https://{site}${endpointPath}.` });
    }
    const pathKey = paths.includes('/action') ? '/action' : paths[0];
    servers.forEach((server, index) => {
      const location = `#/servers/${index}`;
      const parts = splitServerUrl(server.url);
      if (parts === undefined) {
        report({ location, message: `Server URL "${server.url}" is not an absolute URL; the endpoint is https://{site}${endpointPath}.` });
        return;
      }
      if (parts.scheme !== 'https') {
        report({ location, message: `Server URL "${server.url}" uses ${parts.scheme}://; the endpoint is served over https only.` });
      }
      if (pathKey === undefined) return;
      const resolved = `${parts.path.replace(/\/+$/, '')}${pathKey}`;
      if (resolved !== endpointPath) {
        report({
          location,
          message: `Server URL "${server.url}" with path "${pathKey}" resolves to ${resolved}, not ${endpointPath} (the version v1 is part of the path).`,
        });
      }
    });
  },
};
