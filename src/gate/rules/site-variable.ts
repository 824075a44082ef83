import type { ContractRule } from './contract-rule.ts';
import { splitServerUrl } from './single-endpoint.ts';

/** RFC 2606 (and RFC 6761 for `.localhost`) names that can never belong to a real shop. */
export function isReservedExampleHost(host: string): boolean {
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return /(^|\.)(example|test|invalid|localhost)$/.test(name) || /(^|\.)example\.(com|net|org)$/.test(name);
}

export const siteVariableRule: ContractRule = {
  name: 'site-variable',
  rule: 'Each operator site has its own endpoint, so the host is the {site} variable; its default is a reserved example name (RFC 2606), as openapi/README.md records.',
  rules: ['1.3', '4.1b'],
  check({ document }, report) {
    (document.servers ?? []).forEach((server, index) => {
      const location = `#/servers/${index}`;
      const parts = splitServerUrl(server.url);
      if (parts !== undefined && parts.host !== '{site}') {
        report({
          location,
          message: `Server URL "${server.url}" names the host "${parts.host}"; every operator's site has its own endpoint, so the host must be the {site} variable.`,
        });
      }
      const site = server.variables?.site;
      if (site === undefined) {
        report({ location, message: `Server URL "${server.url}" declares no "site" variable for the operator's host name.` });
      } else if (!isReservedExampleHost(String(site.default))) {
        report({
          location: `${location}/variables/site`,
          message: `The default of {site}, "${site.default}", is not a reserved example name (RFC 2606: *.example, *.test, *.invalid, *.localhost, example.com, example.net, example.org); a real host name would send readers' requests to somebody's shop.`,
        });
      }
    });
  },
};
