import type { Endpoint } from '../../contract/model.ts';
import { pythonLiteral } from '../literals.ts';
import { clientPagePaths, pythonImportName, pythonMethodName, clientClassName } from '../client-libraries.ts';
import { fillInComment, variableDeclarations } from '../sample-parts.ts';
import type { SampleStatuses } from '../sample-statuses.ts';
import { interpolatedBaseUrl, libraryCall, libraryThingsToFillIn, plainPermalinkBase, type LibraryCall } from './library-call.ts';

/**
 * An action's sample with the Python library: a script that calls the action's method with a
 * dictionary of its own fields by the contract's names. The client class has the TypeScript
 * client's name.
 */
export function pythonLibrarySample(endpoint: Endpoint, body: Record<string, unknown>, _statuses: SampleStatuses, call: LibraryCall): string {
  const { key, fields } = libraryCall(body, call);
  const action = body[call.envelope.selector] as string;
  const given = Object.fromEntries(fields.filter((field) => field.present).map((field) => [field.name, field.value]));
  const base = interpolatedBaseUrl(endpoint, (name) => `{${name}}`);
  return `# The Python library: install it with pip as ${clientPagePaths.python} shows.
${fillInComment('#', libraryThingsToFillIn(endpoint, body))}
from ${pythonImportName} import ${clientClassName}

${variableDeclarations(endpoint, (name, value) => `${name} = ${JSON.stringify(value)}`)}

# Without pretty permalinks, pass \`f"${plainPermalinkBase(base)}"\` as the site.
client = ${clientClassName}(f"${base}", ${JSON.stringify(key)})

# The service's refusal, or the host's answer when waiting did not help, is an error naming it.
answer = client.${pythonMethodName(action)}(${pythonLiteral(given)})
print(answer)
`;
}
