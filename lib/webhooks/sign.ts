import "server-only";
import crypto from "node:crypto";

// Standard Webhooks signing (https://www.standardwebhooks.com): a secret is `whsec_` and the base64 of 32 random
// bytes; a message is signed with HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under those bytes, sent
// as `v1,<base64>`. Several signatures (the new and the previous secret, the day after a rotation) are separated
// by spaces; a receiver accepts the message when any one of them verifies.

const SECRET_PREFIX = "whsec_";

/** A new endpoint secret. */
export function newSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString("base64");
}

/** The webhook-signature header's value for one message under each secret given. */
export function signatures(secrets: string[], messageId: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
      const mac = crypto.createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64");
      return `v1,${mac}`;
    })
    .join(" ");
}
