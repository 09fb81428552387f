// npm run db:reset-demo — restores the demo catalogue in DATABASE_URL's database: every pet is deleted
// and the demo pets are added again, each deletion and addition in the activity log. API keys and staff
// accounts are kept.
import { parseToolLine, runCommand } from "@/scripts/cli";
import { openDatabase } from "@/scripts/cli-database";
import { db } from "@/lib/db/client";
import { COMMAND_LINE } from "@/lib/audit/record";
import { addDemoPhotos } from "@/lib/demo-photos";
import { resetDemoCatalogue } from "@/lib/demo-seed";

const tool = {
  run: "npm run db:reset-demo",
  about:
    "Restores the demo catalogue in DATABASE_URL's database: every pet is deleted and the demo pets added again,\n" +
    "each in the activity log. API keys, staff accounts and sessions are kept.",
  opensDatabase: true,
};

await runCommand(async () => {
  const { values } = parseToolLine(tool, { usage: "" });
  const { database } = await openDatabase(values);
  const before = await db().pet.count();
  const added = await resetDemoCatalogue(db(), database.provider);
  const photos = await addDemoPhotos(COMMAND_LINE);
  const where = database.provider === "sqlite" ? database.file : "PostgreSQL";
  console.log(
    `Demo catalogue restored in ${where}: ${before} pet(s) removed, ${added} demo pets added, ${photos} with a photo.`,
  );
});
