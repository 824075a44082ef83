/**
 * Real PHP 7.4 to 8.5 inside this Node process: the WebAssembly builds of the `@php-wasm/node-*`
 * packages (WordPress Playground's), each run as PHP runs in production for the library's tests:
 * opcache on (its file cache, since php-wasm has no shared memory; the optimizer runs as it does
 * natively), `zend.exception_ignore_args=0`, `error_reporting=E_ALL`, and every error, warning,
 * notice and deprecation a failure, thrown by an error handler installed before any script loads
 * and looked for again in the output. curl reaches servers on 127.0.0.1 through php-wasm's own
 * outbound proxy (a WebSocket-to-TCP bridge it starts in this process), so a sandbox served here
 * answers a PHP program run here.
 *
 * It lives in tests/support because only tests use it and its packages are devDependencies.
 */
import { createNodeFsMountHandler, loadNodeRuntime } from '@php-wasm/node';
import { PHP, PHPResponse, type SupportedPHPVersion } from '@php-wasm/universal';

/** Every PHP the library's page claims, oldest first; adding one is adding its `@php-wasm/node-*` devDependency and its version here. */
export const phpWasmVersions = ['7.4', '8.0', '8.1', '8.2', '8.3', '8.4', '8.5'] as const satisfies readonly SupportedPHPVersion[];
export type PhpWasmVersion = (typeof phpWasmVersions)[number];

/** What one run of a PHP file gave: its exit code, its output, and every error PHP raised on the way. */
export interface PhpWasmRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Each error, warning, notice or deprecation PHP raised, from the handler or found in the output. */
  raised: string[];
}

/** Where the runtime keeps what it writes: the strict prelude and opcache's file cache. */
const internalDirectory = '/internal/project-php';
const preludePath = `${internalDirectory}/strict-prelude.php`;
const opcacheDirectory = `${internalDirectory}/opcache`;
const raisedMark = 'PHP-WASM-RAISED: ';

/**
 * Loaded before every script (auto_prepend_file): any error PHP raises becomes an exception at its
 * line, and is also written to stderr, marked, in case the code that raised it catches the
 * exception. A fatal error, which no handler sees, is written at shutdown.
 */
const prelude = `<?php
set_error_handler(static function (int $level, string $message, string $file, int $line): bool {
    file_put_contents('php://stderr', '${raisedMark}' . $level . ' ' . $message . ' at ' . $file . ':' . $line . "\\n");
    throw new ErrorException($message, 0, $level, $file, $line);
});
register_shutdown_function(static function (): void {
    $last = error_get_last();
    if ($last !== null) {
        file_put_contents('php://stderr', '${raisedMark}' . $last['type'] . ' ' . $last['message'] . ' at ' . $last['file'] . ':' . $last['line'] . "\\n");
    }
});
`;

/** The php.ini of every run: production's error and trace settings, with opcache on. */
const phpIni = [
  `auto_prepend_file = ${preludePath}`,
  'error_reporting = E_ALL',
  'display_errors = stderr',
  'display_startup_errors = 1',
  'html_errors = 0',
  'log_errors = 0',
  'zend.exception_ignore_args = 0',
  'memory_limit = 256M',
  'max_execution_time = 0',
  'opcache.enable = 1',
  'opcache.enable_cli = 1',
  'opcache.jit = 0',
  // php-wasm has no shared memory, so opcache compiles and optimizes into its file cache only.
  'opcache.file_cache_only = 1',
  `opcache.file_cache = ${opcacheDirectory}`,
  // A file the test wrote a moment ago is cached too, not left to the plain compiler for two seconds.
  'opcache.file_update_protection = 0',
  // php-wasm cannot start a process; a program that tries gets PHP's own refusal instead of a JavaScript error.
  'disable_functions = popen,proc_open,shell_exec,exec,system,passthru',
].join('\n');

/** PHP's own report of an error in the output, in the forms it writes to a terminal. */
const reportedError = /^(?:PHP )?(?:Fatal error|Warning|Notice|Deprecated|Parse error|Recoverable fatal error|Strict Standards|User (?:Error|Warning|Notice|Deprecated)): /m;

let nextProcessId = 1;

/** One PHP of one version, with host folders mounted, running one file at a time. */
export class PhpWasm {
  private queue: Promise<unknown> = Promise.resolve();
  readonly version: PhpWasmVersion;
  private readonly php: PHP;

  private constructor(version: PhpWasmVersion, php: PHP) {
    this.version = version;
    this.php = php;
  }

  /** Starts PHP `version` with each host folder of `mounts` (by its path inside PHP). */
  static async start(version: PhpWasmVersion, mounts: Record<string, string> = {}): Promise<PhpWasm> {
    const php = new PHP(await loadNodeRuntime(version, { emscriptenOptions: { processId: nextProcessId++ } }));
    // The SAPI named "cli", the one opcache.enable_cli switches on; php-wasm's own name is one opcache does not serve.
    await php.setSapiName('cli');
    php.mkdir(opcacheDirectory);
    php.writeFile(preludePath, prelude);
    php.writeFile('/internal/shared/php.ini', phpIni);
    for (const [inside, outside] of Object.entries(mounts)) {
      php.mkdir(inside);
      await php.mount(inside, createNodeFsMountHandler(outside));
    }
    return new PhpWasm(version, php);
  }

  /** Runs the PHP file at `scriptPath` (a path inside PHP) with `env` added to its environment. */
  run(scriptPath: string, env: Record<string, string> = {}): Promise<PhpWasmRun> {
    const next = this.queue.then(() => this.runNow(scriptPath, env));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs PHP code given as text, written to a file first so that opcache compiles it as it compiles a script. */
  runCode(code: string, env: Record<string, string> = {}): Promise<PhpWasmRun> {
    const scriptPath = `${internalDirectory}/snippet-${Math.random().toString(36).slice(2)}.php`;
    this.php.writeFile(scriptPath, code);
    return this.run(scriptPath, env);
  }

  /** Whether a file PHP ran was compiled through opcache: its cached form is on disk. */
  opcacheHolds(scriptPath: string): boolean {
    const systems = this.php.listFiles(opcacheDirectory);
    return systems.some((system) => this.php.fileExists(`${opcacheDirectory}/${system}${scriptPath}.bin`));
  }

  private async runNow(scriptPath: string, env: Record<string, string>): Promise<PhpWasmRun> {
    let response: PHPResponse;
    try {
      response = await PHPResponse.fromStreamedResponse(await this.php.runStream({ scriptPath, env }));
    } catch (error) {
      const failed = (error as { response?: PHPResponse }).response;
      if (failed === undefined) throw error;
      response = failed;
    }
    const stdout = response.text;
    const stderr = response.errors;
    const raised = [
      ...stderr.split('\n').filter((line) => line.startsWith(raisedMark)).map((line) => line.slice(raisedMark.length)),
      ...[stdout, stderr.split('\n').filter((line) => !line.startsWith(raisedMark)).join('\n')].flatMap((text) => text.split('\n').filter((line) => reportedError.test(line))),
    ];
    return { exitCode: response.exitCode, stdout, stderr, raised };
  }

  /** Stops PHP and its network proxy. */
  close(): void {
    this.php.exit();
  }
}
