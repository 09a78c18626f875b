/** A refusal the CLI explains to the operator (exit code 2 by default, 3 for "not found"). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** A command given without an argument it needs: the CLI prints its whole usage after the refusal. */
export class MissingArgument extends CliError {}
