import type { Endpoint } from '../../contract/model.ts';
import { phpLiteral, phpString } from '../literals.ts';
import { phpFloorPhrase } from '../php-floor.ts';
import { clientPagePaths, phpClientNamespace } from '../client-libraries.ts';
import { fillInComment, variableDeclarations } from '../sample-parts.ts';
import type { SampleStatuses } from '../sample-statuses.ts';
import { interpolatedBaseUrl, libraryCall, libraryThingsToFillIn, type LibraryCall } from './library-call.ts';

/**
 * An action's sample with the PHP library: the method of the action, given the example's fields
 * as one array by the contract's names, as the TypeScript client's method takes one object, so
 * that a field a later release adds changes no call.
 */
export function phpLibrarySample(endpoint: Endpoint, body: Record<string, unknown>, _statuses: SampleStatuses, call: LibraryCall): string {
  const { method, key, fields } = libraryCall(body, call);
  const given = Object.fromEntries(fields.filter((field) => field.present).map((field) => [field.name, field.value]));
  const site = (name: string) => `{$${name}}`;
  return `<?php
// The PHP library on ${phpFloorPhrase}: install it with Composer as ${clientPagePaths.php} shows.
${fillInComment('//', libraryThingsToFillIn(endpoint, body))}
require __DIR__ . '/vendor/autoload.php';

use ${phpClientNamespace}\\Client;

${variableDeclarations(endpoint, (name, value) => `$${name} = ${phpString(value)};`)}

// Without pretty permalinks, pass array( 'plain_permalinks' => true ) after the key.
$client = new Client( "${interpolatedBaseUrl(endpoint, site)}", ${phpLiteral(key)} );

// The service's refusal, or the host's answer when waiting did not help, is an exception naming it.
$result = $client->${method}( ${Object.keys(given).length === 0 ? 'array()' : phpLiteral(given)} );
echo json_encode( $result, JSON_PRETTY_PRINT ), "\\n";
`;
}
