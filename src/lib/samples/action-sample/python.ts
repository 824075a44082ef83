import type { Endpoint } from '../../contract/model.ts';
import { pythonLiteral } from '../literals.ts';
import { retryPolicy } from '../retry-policy.ts';
import { answerComment, fillInComment, interpolatedUrl, plainPermalinkComment, thingsToFillIn, variableDeclarations } from '../sample-parts.ts';
import type { SampleStatuses } from '../sample-statuses.ts';

/** An action's sample in Python with the `requests` library. */
export function pythonSample(endpoint: Endpoint, body: unknown, statuses: SampleStatuses): string {
  const code = statuses.codeField;
  return `import requests  # pip install requests

${fillInComment('#', thingsToFillIn(endpoint, body))}
${variableDeclarations(endpoint, (name, value) => `${name} = ${JSON.stringify(value)}`)}

payload = ${pythonLiteral(body)}

${plainPermalinkComment('#', endpoint, (name) => `{${name}}`)}response = requests.${endpoint.method.toLowerCase()}(
    f"${interpolatedUrl(endpoint, (name) => `{${name}}`)}",
    json=payload,
    timeout=(${retryPolicy.connectTimeoutSeconds}, ${retryPolicy.attemptTimeoutSeconds}),
    allow_redirects=False,
)
${answerComment('#', statuses)}
kind = response.headers.get("Content-Type", "")
answer = response.json() if kind.lower().startswith("application/json") else None
if response.status_code == ${statuses.success}:
    print(answer)
elif isinstance(answer, dict) and "${code}" in answer:
    raise SystemExit(answer["${code}"])
else:
    raise SystemExit(f"HTTP {response.status_code} from the host, ${statuses.retryAfter}: {response.headers.get('${statuses.retryAfter}')}")
`;
}
