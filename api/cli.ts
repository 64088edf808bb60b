import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
/** The parsed values of `options`, as parseArgs gives them in strict mode. */
export type CommandValues<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true }>>['values'];

export interface Command<O extends Options> {
  /** The prefix of every message: `backup: --out missing.` */
  name: string;
  usage: string;
  /** The command's options; --help (-h) is added. */
  options: O;
  /** Options that must be given, named in this order when missing. */
  required: readonly (keyof O & string)[];
  /** The command writes patient data: files it makes are readable by this user only. */
  privateFiles?: boolean;
  /** Errors whose message is printed as it is; any other is printed after "failed: ". */
  knownErrors: readonly (abstract new (...args: never[]) => Error)[];
  /** The message as printed: never a password (e.g. that of a database URL). */
  redact(message: string, values: CommandValues<O>, known: boolean): string;
  run(values: CommandValues<O>): Promise<unknown>;
}

/**
 * What migrate-data, backup and restore share: parses the arguments (strictly), answers --help, and
 * returns the exit status: 0 done, 1 refused or failed (one message, redacted), 2 wrong arguments.
 */
export async function runCommand<O extends Options>(command: Command<O>): Promise<number> {
  if (command.privateFiles) process.umask(0o077);
  let values: CommandValues<O> & { help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }) as { values: CommandValues<O> & { help?: boolean } });
  } catch (error) {
    console.error(`${command.name}: ${(error as Error).message}\n${command.usage}`);
    return 2;
  }
  if (values.help) {
    console.log(command.usage);
    return 0;
  }
  const missing = command.required.filter((name) => !(values as Record<string, unknown>)[name]);
  if (missing.length > 0) {
    console.error(`${command.name}: ${missing.map((name) => `--${name}`).join(' and ')} missing.\n${command.usage}`);
    return 2;
  }
  try {
    await command.run(values);
    return 0;
  } catch (error) {
    const known = command.knownErrors.some((kind) => error instanceof kind);
    const message = command.redact((error as Error).message, values, known);
    console.error(`${command.name}: ${known ? '' : 'failed: '}${message}`);
    return 1;
  }
}
