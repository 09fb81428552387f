import fs from "node:fs";

// Stops the server global-setup.ts started, by its pid, and removes its database.

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env.E2E_SERVER_PID);
  if (pid > 0 && alive(pid)) {
    process.kill(pid, "SIGTERM");
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (alive(pid)) process.kill(pid, "SIGKILL");
  }
  const dir = process.env.E2E_DATABASE_DIR;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
