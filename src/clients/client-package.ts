import type { ExecutableContract } from '../lib/contract/executable-contract.ts';

/** A client library built from the one model and published with the site, as a download and to its registry. */
export interface ClientPackage {
  /** Short name used in command output and file names: `php`, `typescript` or `python`. */
  readonly language: string;
  /** The registry the release workflow publishes to. */
  readonly registry: 'packagist' | 'npm' | 'pypi';
  /**
   * Writes the packed download (a zip for Composer, a tarball for npm, a wheel for pip, with its sdist beside it) into `outDirectory` and returns its absolute path.
   * `repository` is the source repository's URL, which npm's provenance requires the manifest to name.
   * `contract` is the contract as a gate already passed it (the site's build hands over its own);
   * without it the package runs the gate first.
   */
  pack(outDirectory: string, options?: { repository?: string; contract?: ExecutableContract }): Promise<string>;
}
