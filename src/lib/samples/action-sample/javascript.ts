import type { Endpoint } from '../../contract/model.ts';
import { javascriptLiteral } from '../literals.ts';
import { retryPolicy } from '../retry-policy.ts';
import { answerComment, fillInComment, interpolatedUrl, plainPermalinkComment, thingsToFillIn, variableDeclarations } from '../sample-parts.ts';
import type { SampleStatuses } from '../sample-statuses.ts';

/** An action's sample in JavaScript: one `fetch`, run as an ES module with top-level await. */
export function javascriptSample(endpoint: Endpoint, body: unknown, statuses: SampleStatuses): string {
  const code = statuses.codeField;
  return `${fillInComment('//', thingsToFillIn(endpoint, body))}
${variableDeclarations(endpoint, (name, value) => `const ${name} = ${JSON.stringify(value)};`)}

${plainPermalinkComment('//', endpoint, (name) => `\${${name}}`)}const response = await fetch(\`${interpolatedUrl(endpoint, (name) => `\${${name}}`)}\`, {
  method: ${JSON.stringify(endpoint.method)},
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(${javascriptLiteral(body, '  ')}),
  signal: AbortSignal.timeout(${retryPolicy.attemptTimeoutSeconds * 1000}),
  redirect: "manual",
});
${answerComment('//', statuses)}
const type = response.headers.get("Content-Type") ?? "";
const answer = /^application\\/json/i.test(type) ? await response.json() : null;
if (response.status === ${statuses.success}) console.log(answer);
else if (typeof answer?.${code} === "string") throw new Error(answer.${code});
else throw new Error(\`HTTP \${response.status} from the host, ${statuses.retryAfter}: \${response.headers.get("${statuses.retryAfter}")}\`);
`;
}
