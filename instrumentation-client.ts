import { config } from "zod/v4/core";

// Next runs this file in the browser before any of the app's own modules, and zod must hear it before it
// builds its first object schema: that is when it probes `new Function("")` to decide whether to compile its
// parsers, and our CSP (no 'unsafe-eval') reports the probe as a violation even though zod catches the error.
// Jitless parsing gives the same results. Only the browser needs this: the server has no CSP and keeps zod's
// compiled parsers, the faster ones. zod keeps this setting on globalThis, so every copy of zod shares it.
config({ jitless: true });
