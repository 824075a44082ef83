/**
 * The command line of a script, read by `node:util` `parseArgs`: `--help` prints the usage and
 * exits 0; an option the script does not know, a missing value or an argument it takes none of
 * prints why and the usage, and exits 2.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

export function scriptArguments<const Options extends ParseArgsOptionsConfig>(
  usage: string,
  options: Options,
  { positionals = false, args = process.argv.slice(2) }: { positionals?: boolean; args?: string[] } = {},
) {
  try {
    const parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: positionals, strict: true });
    if ((parsed.values as { help?: boolean }).help === true) {
      console.log(usage);
      process.exit(0);
    }
    return parsed;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

/** A whole number of at least `minimum` given as `--name N`, or the default; anything else exits 2 with the usage. */
export function wholeNumberOption(usage: string, name: string, given: string | undefined, fallback: number, minimum: number): number {
  const value = given === undefined ? fallback : Number(given);
  if (Number.isInteger(value) && value >= minimum) return value;
  console.error(`--${name} must be a whole number of at least ${minimum}, not "${given}".\n${usage}`);
  process.exit(2);
}
