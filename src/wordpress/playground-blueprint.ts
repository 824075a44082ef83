/**
 * A WordPress Playground blueprint that installs the reference plugin's zip from a URL and
 * activates it, on a site whose environment type is `local`, so the plugin runs. It logs nobody
 * in: Playground's automatic login answers a request without its cookie with a redirect, which a
 * client sending a POST to the endpoint would follow as a GET.
 */
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { pluginSlug, pluginZipName } from './plugin-zip.ts';

/** WordPress Playground's command line, at the version the page gives and the test runs. */
export const playgroundCliPackage = '@wp-playground/cli@3.1.56';

export function playgroundBlueprintName(contract: ExecutableContract): string {
  return `${pluginSlug}-${contract.model.documentVersion}.blueprint.json`;
}

export function playgroundBlueprint(zipUrl: string): Record<string, unknown> {
  return {
    $schema: 'https://playground.wordpress.net/blueprint-schema.json',
    landingPage: `/wp-admin/options-general.php?page=${pluginSlug}`,
    constants: { WP_ENVIRONMENT_TYPE: 'local' },
    steps: [{ step: 'installPlugin', pluginData: { resource: 'url', url: zipUrl }, options: { activate: true } }],
  };
}

/** The blueprint as the site publishes it, the zip named by its URL on the site. */
export function publishedBlueprint(contract: ExecutableContract, docsUrl: string, downloadDirectory: string): string {
  return `${JSON.stringify(playgroundBlueprint(`${docsUrl}/${downloadDirectory}/${pluginZipName(contract)}`), null, 2)}\n`;
}
