// npm run db:migrate — applies the checked-in migrations to DATABASE_URL (SQLite by default).
import { parseToolLine, runCommand } from "@/scripts/cli";
import { openDatabase } from "@/scripts/cli-database";

const tool = {
  run: "npm run db:migrate",
  about:
    "Applies the checked-in migrations that DATABASE_URL's database lacks (SQLite's data/animal-store.db by\n" +
    "default), and says which; running it again applies nothing.",
  opensDatabase: true,
};

await runCommand(async () => {
  const { values } = parseToolLine(tool, { usage: "" });
  const { database, applied } = await openDatabase(values);
  const where = database.provider === "sqlite" ? database.file : "PostgreSQL";
  console.log(applied.length ? `Applied ${applied.join(", ")} to ${where}.` : `${where} is up to date.`);
});
