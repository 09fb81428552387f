// npm run db:migrate — applies the checked-in migrations to DATABASE_URL (SQLite by default).
import { parseToolLine, runCommand } from "@/scripts/cli";
import { config } from "@/lib/config";
import { migrate } from "@/lib/db/migrate";

const tool = {
  run: "npm run db:migrate",
  about:
    "Applies the checked-in migrations that DATABASE_URL's database lacks (SQLite's data/animal-store.db by\n" +
    "default), and says which; running it again applies nothing.",
};

await runCommand(async () => {
  parseToolLine(tool, { usage: "" });
  const { database } = config();
  const applied = await migrate(database);
  const where = database.provider === "sqlite" ? database.file : "PostgreSQL";
  console.log(applied.length ? `Applied ${applied.join(", ")} to ${where}.` : `${where} is up to date.`);
});
