// npm run webhook -- create <url> [--events TYPE,…] | list | disable <id> | enable <id> | delete <id>
//   | rotate-secret <id>
// Manages the webhook endpoints of DATABASE_URL's database, as the Webhooks page does. `create` and
// `rotate-secret` print the endpoint's secret alone on the last line. Changes are recorded in the activity log as
// the command line's. The running servers' workers send the deliveries (lib/webhooks/worker.ts).
import { parseCommandLine, printTable, runCommand, UsageError } from "@/scripts/cli";
import { openDatabase } from "@/scripts/cli-database";
import { COMMAND_LINE } from "@/lib/audit/record";
import { Refusal } from "@/lib/refusal";
import { endpointIdSchema } from "@/lib/webhooks/schema";
import { createEndpoint, deleteEndpoint, listEndpoints, rotateSecret, setEndpointState } from "@/lib/webhooks/store";

const tool = {
  run: "npm run webhook",
  about:
    "Manages the webhook endpoints of DATABASE_URL's database (SQLite's data/animal-store.db by default).\n" +
    "Changes are recorded in the activity log as the command line's.",
  opensDatabase: true,
};

const oneId = (name: string) => ({
  usage: "<id>",
  args: ["id"],
  missing: () => `${name} needs an endpoint id (npm run webhook -- list shows them)`,
});

const commands = {
  create: {
    usage: "<url> [--events TYPE,…]",
    about:
      "Adds an endpoint receiving every event, or the types listed (pet.created, order.*, …), and prints its\n" +
      "secret alone on the last line.",
    args: ["url"],
    options: { events: { type: "string" as const } },
    missing: () => "create needs the endpoint's URL",
  },
  list: { usage: "", about: "Lists every endpoint: id, URL, event types, state and since when it fails." },
  disable: { ...oneId("disable"), about: "Stops deliveries to an endpoint; pending ones wait until it is enabled." },
  enable: { ...oneId("enable"), about: "Resumes deliveries, from the events that happen from now on." },
  delete: { ...oneId("delete"), about: "Deletes an endpoint and its deliveries." },
  "rotate-secret": {
    ...oneId("rotate-secret"),
    about: "Gives an endpoint a new secret, printed alone on the last line; the old one also signs for 24 hours.",
  },
};

const date = (value: string | null) => (value ? value.replace(/\.\d+Z$/, "Z") : "");

function idOf(argument: string): number {
  const id = endpointIdSchema.safeParse(argument);
  if (!id.success) throw new UsageError(`"${argument}" is not an endpoint id. See: npm run webhook -- list`);
  return id.data;
}

/** A refusal of the store, as a usage error: the command line says why in one line and exits 2. */
async function refusalsInWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refusal) throw new UsageError(error.message);
    throw error;
  }
}

await runCommand(async () => {
  const { command, args, values } = parseCommandLine(tool, commands);
  await openDatabase(values);

  if (command === "create") {
    const eventTypes =
      typeof values.events === "string" ? values.events.split(",").map((type) => type.trim()) : undefined;
    const { endpoint, secret } = await refusalsInWords(() =>
      createEndpoint({ url: args[0], eventTypes }, COMMAND_LINE),
    );
    const types = endpoint.eventTypes.length ? endpoint.eventTypes.join(", ") : "every event";
    console.log(`Created webhook endpoint ${endpoint.id} for ${endpoint.url} (${types}). Its signing secret:`);
    console.log(secret);
  } else if (command === "list") {
    const endpoints = await listEndpoints();
    if (endpoints.length === 0) console.log("No webhook endpoints. Add one with: npm run webhook -- create <url>");
    else
      printTable(
        ["ID", "URL", "EVENTS", "STATE", "FAILING SINCE", "CREATED"],
        endpoints.map((endpoint) => [
          String(endpoint.id),
          endpoint.url,
          endpoint.eventTypes.length ? endpoint.eventTypes.join(",") : "all",
          endpoint.state === "enabled" ? "enabled" : `disabled: ${endpoint.disabledReason ?? ""}`,
          date(endpoint.failingSince),
          date(endpoint.createdAt),
        ]),
      );
  } else if (command === "rotate-secret") {
    const { endpoint, secret } = await refusalsInWords(() => rotateSecret(idOf(args[0]), COMMAND_LINE));
    console.log(
      `Rotated the secret of webhook endpoint ${endpoint.id}; the old one also signs until ` +
        `${date(endpoint.previousSecretUntil)}. The new secret:`,
    );
    console.log(secret);
  } else if (command === "delete") {
    const id = idOf(args[0]);
    if (!(await deleteEndpoint(id, COMMAND_LINE))) throw new UsageError(`No webhook endpoint has id ${id}.`);
    console.log(`Deleted webhook endpoint ${id} and its deliveries.`);
  } else {
    const state = command === "enable" ? "enabled" : "disabled";
    const { endpoint, changed } = await refusalsInWords(() => setEndpointState(idOf(args[0]), state, COMMAND_LINE));
    console.log(`Webhook endpoint ${endpoint.id} ${changed ? "is now" : "was already"} ${state}.`);
  }
});
