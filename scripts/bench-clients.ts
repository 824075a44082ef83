/**
 * `npm run bench:clients`: what a client library adds to a call, beside a bare call doing the same
 * I/O, in one run against one local sandbox. The PHP part: the library generated from the
 * contract, installed from its zip as the page says, calls one action with the pace switched off
 * and no throttling, alternating with a bare curl call that posts the same body on a kept-alive
 * handle and decodes the answer; the figures are the medians of each and the time the library adds.
 *
 *   npm run bench:clients [-- --calls 400]
 *
 * Not a timed test: the shared machine makes any one figure noisy, so this prints and asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { methodName } from '../src/clients/php/client-class.ts';
import { installPackage, unpackZip } from '../src/clients/php/composer-project.ts';
import { packPhpClient } from '../src/clients/php/package.ts';
import { composerPackageName, phpNamespace } from '../src/clients/php/php-source.ts';
import { median } from '../src/lib/measures/statistics.ts';
import { loadGatedContract } from '../src/sandbox/contract-gate.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const projectDirectory = path.resolve(import.meta.dirname, '..');
const usage = 'Usage: npm run bench:clients -- [--calls N]';
const { values } = scriptArguments(usage, { calls: { type: 'string' } });
const calls = wholeNumberOption(usage, 'calls', values.calls, 400, 10);

/** The PHP that times both kinds of call, alternating so that a busy moment hits both. */
const benchScript = `<?php
require $argv[1];
$plan = json_decode((string) file_get_contents($argv[2]), true);
$client = new \\${phpNamespace}\\Client($plan['siteUrl'], $plan['apiKey'], ['pace' => 0]);
$curl = curl_init();
$bare = static function () use ($curl, $plan) {
    $headers = [];
    curl_setopt_array($curl, [
        CURLOPT_URL => $plan['endpointUrl'],
        CURLOPT_POST => true,
        CURLOPT_POSTFIELDS => json_encode($plan['body']),
        CURLOPT_HTTPHEADER => ['Content-Type: application/json', 'Expect:'],
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_HEADERFUNCTION => static function ($handle, string $line) use (&$headers): int {
            $parts = explode(':', $line, 2);
            if (count($parts) === 2) {
                $headers[strtolower(trim($parts[0]))] = trim($parts[1]);
            }
            return strlen($line);
        },
    ]);
    $answer = json_decode((string) curl_exec($curl), true);
    if (curl_getinfo($curl, CURLINFO_RESPONSE_CODE) !== $plan['successStatus'] || !is_array($answer)) {
        throw new RuntimeException('the bare call failed');
    }
};
$library = static function () use ($client, $plan) {
    $client->{$plan['method']}($plan['fields']);
};
$times = ['library' => [], 'bare' => []];
for ($index = 0; $index < $plan['calls'] + 20; $index++) {
    foreach ($index % 2 === 0 ? ['library', 'bare'] : ['bare', 'library'] as $kind) {
        $started = hrtime(true);
        $kind === 'library' ? $library() : $bare();
        if ($index >= 20) {
            $times[$kind][] = (hrtime(true) - $started) / 1e6;
        }
    }
}
echo json_encode($times);
`;

function runPhp(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('php', args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`php exited with ${code}:\n${stdout}${stderr}`))));
  });
}

const contract = await loadGatedContract(projectDirectory);
const work = mkdtempSync(path.join(tmpdir(), 'bench-clients-'));
const action = contract.model.actions.find((candidate) => candidate.transition.kind === 'fixed');
if (action === undefined || action.transition.kind !== 'fixed') throw new Error('the contract has no action with a fixed target');
// Already in the status the action leads to: every call of either kind answers the same repeat.
const subscriptionId = 9001;
const sandbox = await startSandbox({ port: 0, seed: [{ id: subscriptionId, status: action.transition.to }], contract });
try {
  const zip = await packPhpClient(contract, path.join(work, 'artifacts'));
  const project = installPackage({ type: 'path', url: unpackZip(zip, path.join(work, 'package')) }, composerPackageName, contract.model.documentVersion);
  const { envelope } = contract.model;
  const planFile = path.join(work, 'plan.json');
  writeFileSync(planFile, JSON.stringify({
    siteUrl: sandbox.url,
    endpointUrl: sandbox.endpointUrl,
    apiKey: sandbox.apiKey,
    method: methodName(action),
    fields: { [envelope.subject]: subscriptionId },
    body: { [envelope.selector]: action.identifier, [envelope.credential]: sandbox.apiKey, [envelope.subject]: subscriptionId },
    successStatus: Number(contract.model.responses.find((response) => /^2/.test(response.status))?.status),
    calls,
  }));
  const scriptFile = path.join(work, 'bench.php');
  writeFileSync(scriptFile, benchScript);
  const times = JSON.parse(await runPhp([scriptFile, path.join(project, 'vendor/autoload.php'), planFile])) as { library: number[]; bare: number[] };
  const library = median(times.library);
  const bare = median(times.bare);
  console.log(`PHP, ${calls} calls of each against the sandbox (${action.identifier}, no retry, no pace), PHP ${(await runPhp(['-r', 'echo PHP_VERSION;'])).trim()}:`);
  console.log(`  the library:  median ${library.toFixed(3)} ms a call`);
  console.log(`  bare curl:    median ${bare.toFixed(3)} ms a call`);
  console.log(`  added:        ${(library - bare).toFixed(3)} ms a call (ratio ${(library / bare).toFixed(2)})`);
  rmSync(project, { recursive: true, force: true });
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
