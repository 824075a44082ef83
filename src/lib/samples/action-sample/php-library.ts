import type { Endpoint } from '../../contract/model.ts';
import { phpLiteral, phpString } from '../literals.ts';
import { phpFloorPhrase } from '../php-floor.ts';
import { clientPagePaths, phpClientNamespace } from '../client-libraries.ts';
import { fillInComment, variableDeclarations } from '../sample-parts.ts';
import type { SampleStatuses } from '../sample-statuses.ts';
import { interpolatedBaseUrl, libraryCall, libraryThingsToFillIn, type LibraryCall } from './library-call.ts';

/**
 * An action's sample with the PHP library: the method of the action, its fields in the order of
 * the method's parameters (an optional one the example leaves out is passed as null when a later
 * one is given, since named arguments are newer than the floor).
 */
export function phpLibrarySample(endpoint: Endpoint, body: Record<string, unknown>, _statuses: SampleStatuses, call: LibraryCall): string {
  const { method, key, fields } = libraryCall(body, call);
  const lastGiven = fields.findLastIndex((field) => field.present);
  const argumentsGiven = fields.slice(0, lastGiven + 1).map((field) => (field.present ? phpLiteral(field.value, '    ') : 'null'));
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
$result = $client->${method}(${argumentsGiven.length === 0 ? '' : ` ${argumentsGiven.join(', ')} `});
echo json_encode( $result, JSON_PRETTY_PRINT ), "\\n";
`;
}
