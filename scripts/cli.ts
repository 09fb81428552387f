import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError } from "@/lib/config";

/**
 * Runs a command-line tool's body: help asked for prints to stdout and exits 0, a configuration or usage error
 * prints one line to stderr and exits 2, any other failure prints its message and exits 1, success exits 0 (the
 * database drivers may hold timers open).
 */
export async function runCommand(body: () => Promise<void>): Promise<never> {
  try {
    await body();
    process.exit(0);
  } catch (error) {
    if (error instanceof HelpRequested) {
      console.log(error.message);
      process.exit(0);
    }
    if (error instanceof ConfigError || error instanceof UsageError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

export class UsageError extends Error {}

/** Runs a tool's argument parsing outside runCommand: help and usage errors end the process as runCommand's do. */
export function parseOrExit<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof HelpRequested) {
      console.log(error.message);
      process.exit(0);
    }
    if (error instanceof UsageError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

/** `--help` or `-h`: its text is printed to stdout and the tool exits 0, having done nothing else. */
export class HelpRequested extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** One command of a tool (or the whole of a tool that has none). */
export type CommandSpec = {
  /** What follows the command's name in its usage line: "<email> [--role staff|admin]". */
  usage: string;
  /** What it does, for --help: a line or two. */
  about: string;
  /** Its positional arguments' names, all required, in order. */
  args?: string[];
  /** Its options (parsed strictly: any other is refused). */
  options?: Options;
  /** Refusal when arguments are missing, naming which: "revoke needs a key id or prefix". */
  missing?: (given: string[]) => string;
  /** Refusal of arguments beyond `args`, naming them. */
  extra?: (given: string[]) => string;
};

export type Tool = {
  /** How it is run: "npm run key". */
  run: string;
  about: string;
  /** It opens DATABASE_URL's database (with openDatabase): every command also takes --create. */
  opensDatabase?: boolean;
};

/** The option of every tool that opens the database, and its lines in the help. */
const createOption = { create: { type: "boolean" } } as const;
const createOptionLines = [
  "  --create  Makes the SQLite database if DATABASE_URL's file does not exist; without it the tool refuses",
  "            (the server's first start, npm start, makes it too). A PostgreSQL database must exist already.",
];

export type Parsed = { command: string; args: string[]; values: Record<string, string | boolean | undefined> };

const quoted = (words: string[]) => words.map((word) => `'${word}'`).join(", ");

/** A usage line: the tool, then `--` and its arguments when it takes any (npm passes on only what follows it). */
function usageLine(tool: Tool, name: string, spec: Pick<CommandSpec, "usage">): string {
  const rest = [name, spec.usage].filter(Boolean).join(" ");
  return rest ? `${tool.run} -- ${rest}` : tool.run;
}

/** What a refusal calls the command: "create", or the tool's npm script, "db:migrate". */
const commandName = (tool: Tool, name: string) => name || tool.run.replace(/^npm run /, "");

/** A command's options as the tool takes them: its own, and --create when the tool opens the database. */
const optionsOf = (tool: Tool, spec: CommandSpec): Options => ({
  ...spec.options,
  ...(tool.opensDatabase ? createOption : {}),
});

function helpOf(tool: Tool, name: string, spec: CommandSpec): string {
  const optionLines = Object.entries(spec.options ?? {}).map(
    ([option, config]) => `  --${option}${config.type === "string" ? " <value>" : ""}`,
  );
  if (tool.opensDatabase) optionLines.push(...createOptionLines);
  return [
    `usage: ${usageLine(tool, name, spec)}`,
    "",
    spec.about,
    ...(optionLines.length ? ["", "options:", ...optionLines] : []),
  ].join("\n");
}

function toolHelp(tool: Tool, commands: Record<string, CommandSpec>): string {
  const lines = Object.entries(commands).map(([name, spec]) => [`${name} ${spec.usage}`.trim(), spec.about]);
  const width = Math.max(...lines.map(([usage]) => usage.length));
  return [
    `usage: ${tool.run} -- <command> [arguments]`,
    "",
    tool.about,
    "",
    "commands:",
    ...lines.map(([usage, about]) => `  ${usage.padEnd(width)}  ${about.split("\n")[0]}`),
    ...(tool.opensDatabase ? ["", "options of every command:", ...createOptionLines] : []),
    "",
    `${tool.run} -- <command> --help shows one command's usage.`,
  ].join("\n");
}

/** A parse error of node:util's parseArgs, as one line naming the option. */
function parseFailure(error: unknown, usage: string): UsageError {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS")) throw error;
  const first = (error as Error).message.split(/\. |\.$/)[0];
  return new UsageError(`${first.charAt(0).toLowerCase()}${first.slice(1)}; usage: ${usage}`);
}

/** Parses one command's arguments, strictly: unknown options, and missing or extra arguments, are refused. */
function parseCommandArgs(tool: Tool, name: string, spec: CommandSpec, argv: string[]): Parsed {
  const usage = usageLine(tool, name, spec);
  const called = commandName(tool, name);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...optionsOf(tool, spec), help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // A --help anywhere wins over a mistake elsewhere: whoever typed it wants the usage.
    if (argv.includes("--help") || argv.includes("-h")) throw new HelpRequested(helpOf(tool, name, spec));
    throw parseFailure(error, usage);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new HelpRequested(helpOf(tool, name, spec));
  const wanted = spec.args ?? [];
  if (positionals.length < wanted.length) {
    const what = spec.missing?.(positionals) ?? `${called} needs ${wanted.slice(positionals.length).join(" and ")}`;
    throw new UsageError(`${what}; usage: ${usage}`);
  }
  if (positionals.length > wanted.length) {
    const extras = positionals.slice(wanted.length);
    const what =
      spec.extra?.(positionals) ??
      (wanted.length === 0
        ? `${called} takes no arguments; got ${quoted(extras)}`
        : `${called} takes ${wanted.join(" and ")} only; got also ${quoted(extras)}`);
    throw new UsageError(`${what}; usage: ${usage}`);
  }
  const strings = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, Array.isArray(value) ? value.join(" ") : value]),
  );
  return { command: name, args: positionals, values: strings };
}

/** A tool with commands: `tool <command> [arguments]`, `tool --help`, `tool <command> --help`. */
export function parseCommandLine(
  tool: Tool,
  commands: Record<string, CommandSpec>,
  argv = process.argv.slice(2),
): Parsed {
  const [command, ...rest] = argv;
  const names = Object.keys(commands).join(", ");
  if (command === "--help" || command === "-h" || command === "help") {
    const about = rest[0] && Object.hasOwn(commands, rest[0]) ? commands[rest[0]] : undefined;
    throw new HelpRequested(about ? helpOf(tool, rest[0], about) : toolHelp(tool, commands));
  }
  if (command === undefined) throw new UsageError(`a command is needed; commands: ${names} (${tool.run} -- --help)`);
  if (!Object.hasOwn(commands, command))
    throw new UsageError(`unknown command '${command}'; commands: ${names} (${tool.run} -- --help)`);
  return parseCommandArgs(tool, command, commands[command], rest);
}

/** A tool without commands: `tool [arguments]`, `tool --help`. */
export function parseToolLine(tool: Tool, spec: Omit<CommandSpec, "about">, argv = process.argv.slice(2)): Parsed {
  return parseCommandArgs(tool, "", { ...spec, about: tool.about }, argv);
}

/** Prints rows under a header, each column padded to its widest cell. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  for (const row of [header, ...rows])
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join("  ")
        .trimEnd(),
    );
}
