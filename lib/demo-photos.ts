import "server-only";
import { THE_APP, type AuditContext } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { isSqliteBusy } from "@/lib/db/errors";
import { log } from "@/lib/log";
import { encodePhoto } from "@/lib/photos/image";
import { addPhoto } from "@/lib/photos/store";

// The demo catalogue's photos (issue 25): one drawn picture for each demo pet, made here from shapes (an SVG that
// sharp renders), so that a product demo shows pictures with nothing downloaded and no font needed. Each is a
// 480 × 360 PNG of its category's animal in a colour of its own, uploaded as staff would (addPhoto: its record and
// its event). About 20 ms a pet: a first start adds well under a second for the demo's few dozen pets.

const WIDTH = 480;
const HEIGHT = 360;

/** A colour of the pet's own, from its name: the same every time. */
function hue(name: string): number {
  let hash = 0;
  for (const character of name) hash = (hash * 31 + character.codePointAt(0)!) % 360;
  return hash;
}

/** The animal of each demo category, drawn around (240, 190) in `fur`, with `dark` for its details. */
const ANIMALS: Record<string, (fur: string, dark: string) => string> = {
  // Dogs: a round head, long ears, a nose.
  "1": (fur, dark) =>
    `<ellipse cx="160" cy="170" rx="38" ry="80" fill="${dark}"/>` +
    `<ellipse cx="320" cy="170" rx="38" ry="80" fill="${dark}"/>` +
    `<circle cx="240" cy="190" r="105" fill="${fur}"/><ellipse cx="240" cy="235" rx="48" ry="36" fill="#f5e6d3"/>` +
    `<ellipse cx="240" cy="218" rx="18" ry="13" fill="${dark}"/>` +
    `<circle cx="200" cy="165" r="11" fill="${dark}"/><circle cx="280" cy="165" r="11" fill="${dark}"/>`,
  // Cats: pointed ears, whiskers.
  "2": (fur, dark) =>
    `<polygon points="150,140 175,50 225,110" fill="${fur}"/><polygon points="330,140 305,50 255,110" fill="${fur}"/>` +
    `<circle cx="240" cy="190" r="100" fill="${fur}"/>` +
    `<ellipse cx="200" cy="175" rx="12" ry="17" fill="${dark}"/>` +
    `<ellipse cx="280" cy="175" rx="12" ry="17" fill="${dark}"/>` +
    `<polygon points="228,215 252,215 240,228" fill="#e88"/>` +
    `<path d="M150 220 L215 225 M150 240 L215 232 M330 220 L265 225 M330 240 L265 232" ` +
    `stroke="${dark}" stroke-width="3"/>`,
  // Birds: an oval body, a wing, a beak.
  "3": (fur, dark) =>
    `<ellipse cx="240" cy="200" rx="110" ry="85" fill="${fur}"/>` +
    `<ellipse cx="215" cy="215" rx="60" ry="38" fill="${dark}"/>` +
    `<circle cx="305" cy="150" r="52" fill="${fur}"/><circle cx="320" cy="140" r="9" fill="#222"/>` +
    `<polygon points="352,150 395,160 352,170" fill="#f2b01e"/>`,
  // Fish: a body, a tail, an eye.
  "4": (fur, dark) =>
    `<polygon points="120,190 60,130 60,250" fill="${dark}"/>` +
    `<ellipse cx="240" cy="190" rx="135" ry="80" fill="${fur}"/>` +
    `<circle cx="320" cy="170" r="14" fill="#fff"/><circle cx="323" cy="170" r="7" fill="#222"/>` +
    `<path d="M200 130 Q230 190 200 250" stroke="${dark}" stroke-width="6" fill="none"/>`,
  // Reptiles: a long body, legs, a tail.
  "5": (fur, dark) =>
    `<path d="M90 230 Q40 260 70 290" stroke="${fur}" stroke-width="22" fill="none" stroke-linecap="round"/>` +
    `<ellipse cx="220" cy="215" rx="140" ry="48" fill="${fur}"/>` +
    `<ellipse cx="365" cy="195" rx="55" ry="34" fill="${fur}"/>` +
    `<rect x="150" y="245" width="18" height="45" rx="8" fill="${dark}"/>` +
    `<rect x="270" y="245" width="18" height="45" rx="8" fill="${dark}"/>` +
    `<circle cx="385" cy="185" r="7" fill="#222"/>`,
  // Small mammals: round ears, a round body.
  "6": (fur, dark) =>
    `<circle cx="180" cy="105" r="38" fill="${dark}"/><circle cx="300" cy="105" r="38" fill="${dark}"/>` +
    `<circle cx="240" cy="200" r="110" fill="${fur}"/><ellipse cx="240" cy="240" rx="55" ry="38" fill="#f3e7da"/>` +
    `<circle cx="205" cy="180" r="10" fill="#222"/><circle cx="275" cy="180" r="10" fill="#222"/>` +
    `<ellipse cx="240" cy="215" rx="10" ry="7" fill="#c66"/>`,
};

/** The picture of a demo pet, as an SVG document. */
export function demoPicture(name: string, categoryId: bigint): string {
  const h = hue(name);
  const draw = ANIMALS[String(categoryId)] ?? ANIMALS["6"];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="hsl(${(h + 180) % 360},45%,88%)"/>` +
    `<ellipse cx="240" cy="330" rx="190" ry="26" fill="hsl(${(h + 180) % 360},30%,75%)"/>` +
    draw(`hsl(${h},55%,62%)`, `hsl(${h},45%,35%)`) +
    "</svg>"
  );
}

/**
 * Gives each pet of the catalogue that has no photo its drawn picture, when there are at most `limit` pets (the demo
 * catalogue, not a store's own); returns how many were given one. The pictures are made outside any transaction;
 * each upload is its own, like a staff member's.
 */
export async function addDemoPhotos(context: AuditContext = THE_APP, limit = 100): Promise<number> {
  const pets = await db().pet.findMany({ select: { id: true, name: true, categoryId: true }, take: limit + 1 });
  if (pets.length > limit) return 0;
  const { default: sharp } = await import("sharp");
  const pictured = new Set((await db().photo.findMany({ select: { petId: true } })).map((photo) => photo.petId));
  let added = 0;
  for (const pet of pets) {
    if (pictured.has(pet.id)) continue;
    const png = await sharp(Buffer.from(demoPicture(pet.name, pet.categoryId)))
      .png()
      .toBuffer();
    try {
      await addPhoto(pet.id, "image/png", await encodePhoto(png, "image/png"), context);
      added++;
    } catch (error) {
      if (isSqliteBusy(error)) throw error; // tried again whole (server.ts): the pets pictured are skipped
      // A pet deleted meanwhile, say: the demo goes on without its picture.
      log("warn", "a demo photo was not added", { pet: String(pet.id), error: String(error) });
    }
  }
  return added;
}
