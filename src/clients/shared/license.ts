/**
 * The licence every client library is published under: the contract's own, `info.license` of
 * `openapi/openapi.yaml`, read here once so that no package file or manifest types it.
 */
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';

export interface ContractLicense {
  /** The SPDX identifier (`info.license.identifier`), or the licence's name when the contract gives none. */
  readonly identifier: string;
  /** The licence's name as the contract writes it. */
  readonly name: string;
  /** Where the licence's whole text is: `info.license.url`, or else SPDX's page of the identifier. */
  readonly textUrl: string;
}

/** The contract's licence; a contract without one cannot give a package its licence, and says where to add it. */
export function contractLicense(contract: Pick<ExecutableContract, 'document'>): ContractLicense {
  const license = contract.document.info.license;
  const identifier = license?.identifier ?? license?.name;
  if (license === undefined || identifier === undefined || identifier.trim() === '') throw new Error('openapi/openapi.yaml has no info.license with an identifier or a name: the client packages are published under the contract\'s licence.');
  return { identifier, name: license.name, textUrl: license.url ?? `https://spdx.org/licenses/${encodeURIComponent(identifier)}.html` };
}

/** The LICENSE file of a client package: which licence, from where, and where its whole text is. */
export function licenseNotice(contract: Pick<ExecutableContract, 'document'>, packageName: string, version: string): string {
  const { identifier, name, textUrl } = contractLicense(contract);
  return `${packageName} ${version}
Generated from ${contract.document.info.title}'s OpenAPI contract, version ${version}.

SPDX-License-Identifier: ${identifier}

This package is published under the licence its contract names, ${name}.
Its whole text: ${textUrl}
`;
}
