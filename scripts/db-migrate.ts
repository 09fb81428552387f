// npm run db:migrate — applies the checked-in migrations to DATABASE_URL (SQLite by default).
import { runCommand } from "@/scripts/cli";
import { config } from "@/lib/config";
import { migrate } from "@/lib/db/migrate";

await runCommand(async () => {
  const { database } = config();
  const applied = await migrate(database);
  const where = database.provider === "sqlite" ? database.file : "PostgreSQL";
  console.log(applied.length ? `Applied ${applied.join(", ")} to ${where}.` : `${where} is up to date.`);
});
