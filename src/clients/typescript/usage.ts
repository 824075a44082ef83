/**
 * What a reader types to use the TypeScript client, written from the model: the install command,
 * the example script that pauses a subscription (the quickstart's action), the handling of a
 * refusal, and the reference of every method. The page /clients/typescript/ and the package's
 * README show these, and the tests run them as shown.
 */
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { readFacts } from '../../lib/contract/facts.ts';
import { camelCaseName } from '../../lib/samples/client-libraries.ts';
import { fixedErrorClassName, type FixedErrorKindId } from '../shared/error-kinds.ts';
import { exampleEnvironment, methodReference, type MethodReference } from '../shared/page-code.ts';
import { clientDescription, methodName, typescriptClientClassName, typescriptClientPackageName } from './generate.ts';

/** The file name the page gives the example script. */
export const exampleScriptFile = 'pause.mjs';

/** The tarball `npm pack` writes for the package at a version, as the site publishes it. */
export function typescriptClientTarballName(version: string): string {
  return `${typescriptClientPackageName.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/** Where the site publishes the tarball, under its docs URL. */
export function typescriptClientDownloadPath(version: string): string {
  return `/downloads/${typescriptClientTarballName(version)}`;
}

export function installCommand(docsUrl: string, version: string): string {
  return `npm install ${docsUrl.replace(/\/+$/, '')}${typescriptClientDownloadPath(version)}`;
}

/**
 * The lines that read the environment as a careful script does: each variable may be unset
 * (`string | undefined` to TypeScript), so the script stops with what to set instead of sending
 * `undefined`, in one line rather than a stack trace. Saved as `.mts`, it passes `tsc --strict`.
 */
function environmentLines(): string {
  const { siteUrl, apiKey, subscriptionId } = exampleEnvironment;
  return `const siteUrl = process.env.${siteUrl};
const apiKey = process.env.${apiKey};
const subscriptionId = Number(process.env.${subscriptionId});
if (siteUrl === undefined || apiKey === undefined || !Number.isInteger(subscriptionId)) {
  console.error("Set ${siteUrl}, ${apiKey} and ${subscriptionId} first.");
  process.exit(2);
}`;
}

/**
 * The whole example: reads the environment, pauses the subscription, prints the answer. An error
 * of the client, or a base URL the constructor refuses (a `TypeError`, such as a host without its
 * scheme), ends it with the error's name and message, as the PHP and Python examples end.
 */
export function exampleScript(contract: ExecutableContract): string {
  const facts = readFacts(contract.document);
  const base = fixedErrorClassName('base', 'typescript');
  return `import { ${typescriptClientClassName}, ${base} } from "${typescriptClientPackageName}";

${environmentLines()}

try {
  const client = new ${typescriptClientClassName}(siteUrl, apiKey);
  const answer = await client.${methodName(facts.quickstartAction)}({
    ${facts.subscriptionField}: subscriptionId,
  });
  console.log(answer);
} catch (error) {
  // A refusal, a wrong key, a throttled site, no answer, or a base URL without its scheme.
  if (!(error instanceof ${base} || error instanceof TypeError)) throw error;
  console.error(\`\${error.name}: \${error.message}\`);
  process.exitCode = 1;
}
`;
}

/** The file name of the example saved as TypeScript: `.mts` is an ES module whatever the folder's `package.json` says, as `.mjs` is. */
export const typescriptExampleFile = exampleScriptFile.replace(/\.mjs$/, '.mts');

/** Type-checking the example saved as TypeScript, with Node's types: the compiler and the types from npm, then the check. */
export function typecheckCommands(): string {
  return `npm install --save-dev typescript @types/node
npx tsc --strict --noEmit --module nodenext --types node ${typescriptExampleFile}`;
}

/** The run command, after the environment is set. */
export function runCommand(): string {
  return `node ${exampleScriptFile}`;
}

/** Handling the refusal of a status: the conflict's class, the status and the actions it allows. */
export function conflictExample(contract: ExecutableContract, conflictClassName: string): string {
  const facts = readFacts(contract.document);
  const currentStatus = camelCaseName(contract.errors.currentStatusMember);
  const allowedActions = camelCaseName(contract.errors.allowedActionsMember);
  return `import { ${typescriptClientClassName}, ${conflictClassName} } from "${typescriptClientPackageName}";

${environmentLines()}

const client = new ${typescriptClientClassName}(siteUrl, apiKey);
try {
  await client.${methodName(facts.quickstartAction)}({ ${facts.subscriptionField}: subscriptionId });
} catch (error) {
  if (!(error instanceof ${conflictClassName})) throw error;
  // The subscription's status refuses the action: it says which actions that status allows.
  console.log(\`The subscription is \${error.${currentStatus}}; it allows: \${error.${allowedActions}?.join(", ")}\`);
}
`;
}

/**
 * Catching what a call can end with, from the most particular class to the base: no answer
 * (a timeout or a failed connection, after the policy's retries), a throttled site, and any other
 * error of the client.
 */
export function errorHandlingExample(contract: ExecutableContract): string {
  const facts = readFacts(contract.document);
  const names = (kinds: FixedErrorKindId[]) => kinds.map((kind) => fixedErrorClassName(kind, 'typescript'));
  const [timeout, connection, noAnswer, throttled, base] = names(['timeout', 'connection', 'noAnswer', 'throttled', 'base']);
  return `import { ${typescriptClientClassName}, ${[base, connection, noAnswer, throttled, timeout].join(', ')} } from "${typescriptClientPackageName}";

${environmentLines()}

const client = new ${typescriptClientClassName}(siteUrl, apiKey, {
  // Every attempt, retried or not, with its outcome, status, duration and the wait before the next.
  onAttempt: (report) => console.error(JSON.stringify(report)),
});
try {
  console.log(await client.${methodName(facts.quickstartAction)}({ ${facts.subscriptionField}: subscriptionId }));
} catch (error) {
  if (error instanceof ${timeout} || error instanceof ${connection}) {
    // Both are a ${noAnswer}: the action may have gone through, and sending it again is safe.
    console.error(\`No answer after \${error.attempts} attempts: \${error.message}\`);
  } else if (error instanceof ${throttled}) {
    console.error(\`Still throttled after \${error.attempts} attempts: try again later.\`);
  } else if (error instanceof ${base}) {
    console.error(\`\${error.name}: \${error.message}\`);
  } else {
    throw error;
  }
}
`;
}

/** Every method of the client, for the page's reference. */
export function typescriptMethodReference(contract: ExecutableContract): MethodReference[] {
  return methodReference(contract, methodName);
}

/** A Worker's module that pauses a subscription, the key from the Worker's secrets. */
export function workerExample(contract: ExecutableContract): string {
  const facts = readFacts(contract.document);
  const { siteUrl, apiKey } = exampleEnvironment;
  return `import { ${typescriptClientClassName} } from "${typescriptClientPackageName}";

export default {
  async fetch(request, env) {
    const { subscription } = await request.json();
    const client = new ${typescriptClientClassName}(env.${siteUrl}, env.${apiKey}, { timeout: 10_000 });
    const answer = await client.${methodName(facts.quickstartAction)}({ ${facts.subscriptionField}: subscription });
    return Response.json(answer);
  },
};
`;
}

/** The client's options, each with its default, as a reader writes them. */
export function optionsExample(contract: ExecutableContract): string {
  const facts = readFacts(contract.document);
  const description = clientDescription(contract);
  const { policy } = description;
  return `const controller = new AbortController();
const client = new ${typescriptClientClassName}(process.env.${exampleEnvironment.siteUrl}, process.env.${exampleEnvironment.apiKey}, {
  timeout: ${policy.attemptTimeoutMs}, // ms one attempt may take in all
  pace: ${policy.paceMs}, // ms between two requests to one site; 0 switches the pace off
  maxAttempts: ${policy.maxAttempts}, // attempts in all; 1 never sends a request again
  maxRetryWait: ${policy.retryAfterCapMs}, // ms: a longer ${description.retryAfterHeader} throws at once
  userAgent: "my-shop-sync/2.0",
  signal: controller.signal, // aborts every call of this client
});

// One call with its own signal and timeout:
await client.${methodName(facts.quickstartAction)}(
  { ${facts.subscriptionField}: 42 },
  { signal: AbortSignal.timeout(5_000), timeout: 2_000 },
);
`;
}

/** The example's first lines in CommonJS: the same client, required instead of imported. */
export function commonJsExample(contract: ExecutableContract): string {
  const facts = readFacts(contract.document);
  return `const { ${typescriptClientClassName} } = require("${typescriptClientPackageName}");

const client = new ${typescriptClientClassName}(process.env.${exampleEnvironment.siteUrl} ?? "", process.env.${exampleEnvironment.apiKey} ?? "");
client.${methodName(facts.quickstartAction)}({ ${facts.subscriptionField}: Number(process.env.${exampleEnvironment.subscriptionId}) }).then(console.log);
`;
}
