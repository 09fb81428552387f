// A movable clock for the server under test, loaded before it with `node --import` (NODE_OPTIONS): Date.now()
// and `new Date()` read the real clock plus an offset, so a test can put the server at an instant of its
// choosing (getPet's sunset, years ahead) without touching the machine's calendar. Timers and
// performance.now() are left alone. The offset, in milliseconds, is TEST_CLOCK_OFFSET_MS at start; with
// TEST_CLOCK_FILE, the number written in that file replaces it while the server runs (read at most every
// 20 ms of real time). Test harness only: the product never loads it.
import fs from "node:fs";

const RealDate = globalThis.Date;
const realNow = RealDate.now.bind(RealDate);
const file = process.env.TEST_CLOCK_FILE;
let offset = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0) || 0;
let readAt = -Infinity;

function currentOffset() {
  if (file) {
    const now = realNow();
    if (now - readAt >= 20) {
      readAt = now;
      try {
        const written = Number(fs.readFileSync(file, "utf8").trim());
        if (Number.isFinite(written)) offset = written;
      } catch {
        // no file (yet): the offset stays as it was
      }
    }
  }
  return offset;
}

const shiftedNow = () => realNow() + currentOffset();

globalThis.Date = new Proxy(RealDate, {
  construct(target, args, newTarget) {
    return Reflect.construct(target, args.length === 0 ? [shiftedNow()] : args, newTarget);
  },
  apply() {
    return new RealDate(shiftedNow()).toString(); // Date() called as a function: a string of now
  },
  get(target, property, receiver) {
    if (property === "now") return shiftedNow;
    return Reflect.get(target, property, receiver);
  },
});
