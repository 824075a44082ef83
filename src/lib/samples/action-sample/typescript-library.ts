import type { Endpoint } from '../../contract/model.ts';
import { javascriptLiteral } from '../literals.ts';
import { clientPagePaths, typescriptClientClassName, typescriptClientPackageName } from '../client-libraries.ts';
import { fillInComment, variableDeclarations } from '../sample-parts.ts';
import type { SampleStatuses } from '../sample-statuses.ts';
import { interpolatedBaseUrl, libraryCall, libraryThingsToFillIn, plainPermalinkBase, type LibraryCall } from './library-call.ts';

/**
 * An action's sample with the TypeScript client: an ES module (saved as .mjs, it runs as written
 * on Node, and it is TypeScript too) that calls the action's method with its own fields by the
 * contract's names.
 */
export function typescriptLibrarySample(endpoint: Endpoint, body: Record<string, unknown>, _statuses: SampleStatuses, call: LibraryCall): string {
  const { method, key, fields } = libraryCall(body, call);
  const given = Object.fromEntries(fields.filter((field) => field.present).map((field) => [field.name, field.value]));
  const base = interpolatedBaseUrl(endpoint, (name) => `\${${name}}`);
  return `// The TypeScript client, on Node or in a Worker: install it with npm as ${clientPagePaths.typescript} shows.
${fillInComment('//', libraryThingsToFillIn(endpoint, body))}
import { ${typescriptClientClassName} } from ${JSON.stringify(typescriptClientPackageName)};

${variableDeclarations(endpoint, (name, value) => `const ${name} = ${JSON.stringify(value)};`)}

// Without pretty permalinks, pass \`${plainPermalinkBase(base)}\` as the site.
const client = new ${typescriptClientClassName}(\`${base}\`, ${JSON.stringify(key)});

// The service's refusal, or the host's answer when waiting did not help, is an error naming it.
const answer = await client.${method}(${javascriptLiteral(given)});
console.log(answer);
`;
}
