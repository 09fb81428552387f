import "server-only";
import { db } from "@/lib/db/client";

// Liveness and readiness for load balancers and orchestrators: no auth, no data.

const READY_TIMEOUT_MS = 2000;
const state = globalThis as typeof globalThis & { __animalStoreDraining?: boolean };

/** Marks the process as shutting down: it stops reporting ready so no new traffic is sent to it. */
export function markDraining(): void {
  state.__animalStoreDraining = true;
}

export async function readiness(): Promise<{ ready: boolean; reason?: string }> {
  if (state.__animalStoreDraining) return { ready: false, reason: "shutting down" };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db().$queryRawUnsafe("SELECT 1"),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), READY_TIMEOUT_MS))),
    ]);
    return { ready: true };
  } catch {
    return { ready: false, reason: "database unreachable" };
  } finally {
    clearTimeout(timer);
  }
}
