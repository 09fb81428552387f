import type { APIRequestContext, Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { adminApiKey, expect, expectNoAxeViolations, signIn, tabTo, test } from "./support";

// A pet's photos in the admin app (issue 25): added by picking files, several at once, each with its outcome and a
// refused one saying why; the cover in the catalogue, others a same-size placeholder; reordered, made the cover,
// described and deleted by keyboard alone; axe-clean and fitting a 390 px phone. Every pet here is made here.

type MadePet = { id: string; name: string };

let made = 0;
async function makePet(request: APIRequestContext, stem: string): Promise<MadePet> {
  made += 1;
  const name = `${stem} ${Date.now().toString(36)}${made}`;
  const response = await request.post("/v1/pets", {
    headers: { Authorization: `Bearer ${adminApiKey()}` },
    data: { name, categoryId: 2, status: "available" },
  });
  expect(response.status()).toBe(201);
  return { id: String(((await response.json()) as { id: number }).id), name };
}

/** An image file as the file picker hands it over. */
async function imageFile(name: string, format: "png" | "jpeg", colour: string, mimeType = `image/${format}`) {
  const buffer = await sharp({ create: { width: 320, height: 240, channels: 3, background: colour } })
    [format]()
    .toBuffer();
  return { name, mimeType, buffer };
}

function panelOf(page: Page): Locator {
  return page.getByTestId("pet-panel");
}

async function openPet(page: Page, pet: MadePet): Promise<Locator> {
  await signIn(page, `/admin?${new URLSearchParams({ q: pet.name, pet: pet.id })}`);
  const photos = panelOf(page).getByTestId("pet-photos");
  await expect(photos.getByRole("heading", { name: /^Photos/ })).toBeVisible();
  return photos;
}

/** Adds files through the Add photos picker and waits until each has its outcome. */
async function addFiles(photos: Locator, files: Awaited<ReturnType<typeof imageFile>>[]): Promise<void> {
  await photos.getByLabel("Add photos").setInputFiles(files);
  await expect(photos.getByTestId("photo-uploads").getByRole("listitem")).toHaveCount(files.length);
  await expect(photos.getByTestId("photo-uploads").locator("progress")).toHaveCount(0, { timeout: 15_000 });
}

test.describe("a pet's photos", () => {
  test("picked several at once: each says whether it was added and why not; the cover shows in the catalogue", async ({
    page,
    request,
  }) => {
    const pet = await makePet(request, "Photogenic");
    const other = await makePet(request, `${pet.name} sibling`);
    const photos = await openPet(page, pet);
    await expect(photos.getByText("No photos yet")).toBeVisible();
    await addFiles(photos, [
      await imageFile("red.png", "png", "#d02020"),
      await imageFile("blue.jpg", "jpeg", "#2040d0"),
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") },
      await imageFile("disguised.jpg", "png", "#20a020", "image/jpeg"),
    ]);
    const outcome = (name: string) =>
      photos.getByTestId("photo-uploads").getByRole("listitem").filter({ hasText: name });
    await expect(outcome("red.png")).toContainText("Added.");
    await expect(outcome("blue.jpg")).toContainText("Added.");
    await expect(outcome("notes.txt")).toContainText("Not added: not a JPEG, PNG or WebP image.");
    await expect(outcome("disguised.jpg")).toContainText(/Not added: not an image this app takes: .*a PNG image/);
    await expect(panelOf(page).getByRole("status")).toHaveText("2 of 4 photos added.");

    const items = photos.getByTestId("pet-photo");
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText("Cover");
    await expect(items.first().getByRole("img", { name: pet.name })).toBeVisible();
    const loaded = (image: Locator) => image.evaluate((element: HTMLImageElement) => element.naturalWidth);
    expect(await loaded(items.first().getByRole("img"))).toBe(240);

    // The catalogue's row of the pet shows its cover; its sibling without photos a placeholder of the same size.
    const row = (of: MadePet) => page.getByTestId("pet-row").filter({ has: page.locator(`#pet-link-${of.id}`) });
    await expect(row(pet).getByTestId("cover")).toBeVisible();
    await expect.poll(() => loaded(row(pet).getByTestId("cover"))).toBe(240);
    await expect(row(other).getByTestId("no-cover")).toBeVisible();
    const size = async (locator: Locator) => {
      const box = (await locator.boundingBox())!;
      return [box.width, box.height];
    };
    expect(await size(row(pet).getByTestId("cover"))).toEqual(await size(row(other).getByTestId("no-cover")));
    await expect(row(pet).getByRole("link")).toHaveAccessibleName(pet.name);
    await expectNoAxeViolations(page, "a pet's photos, with a refused file told");
  });

  test("keyboard alone: move a photo, make one the cover, describe it and delete it after a confirmation", async ({
    page,
    request,
  }) => {
    const pet = await makePet(request, "Arranged");
    const photos = await openPet(page, pet);
    await addFiles(photos, [
      await imageFile("first.png", "png", "#101010"),
      await imageFile("second.png", "png", "#808080"),
      await imageFile("third.png", "png", "#f0f0f0"),
    ]);
    const items = photos.getByTestId("pet-photo");
    await expect(items).toHaveCount(3);
    const ids = async () =>
      items.evaluateAll((elements) => elements.map((element) => element.querySelector("img")!.getAttribute("src")));
    const [first, second, third] = await ids();

    const earlier = photos.getByRole("button", { name: "Move photo 3 earlier" });
    await tabTo(page, earlier);
    await page.keyboard.press("Enter");
    await expect(panelOf(page).getByRole("status")).toHaveText("Moved to place 2 of 3.");
    await expect.poll(ids).toEqual([first, third, second]);
    // The moved photo's button keeps the focus, now that it is photo 2.
    await expect(photos.getByRole("button", { name: "Move photo 2 earlier" })).toBeFocused();

    await tabTo(page, items.nth(2).getByRole("button", { name: "Make cover" }));
    await page.keyboard.press("Enter");
    await expect(panelOf(page).getByRole("status")).toHaveText("It is the cover now.");
    await expect.poll(ids).toEqual([second, first, third]);
    await expect(items.first()).toContainText("Cover");

    await tabTo(page, items.first().getByRole("button", { name: "Edit text" }));
    await page.keyboard.press("Enter");
    const text = items.first().getByLabel("Text read in the photo's place");
    await expect(text).toBeFocused();
    await text.fill("A grey kitten asleep in a basket");
    await page.keyboard.press("Enter");
    await expect(items.first().getByTestId("photo-alt")).toHaveText("A grey kitten asleep in a basket");
    await expect(items.first().getByRole("img", { name: "A grey kitten asleep in a basket" })).toBeVisible();
    await expect(items.first().getByRole("button", { name: "Edit text" })).toBeFocused(); // back where it was

    await tabTo(page, items.first().getByRole("button", { name: "Delete…" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Delete this photo?" });
    await expect(dialog).toContainText("It is the cover: the next photo becomes the cover.");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(items).toHaveCount(2);
    await expect.poll(ids).toEqual([first, third]);
    await expect(photos.getByLabel("Add photos")).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");
  });

  test("dragging a photo onto another puts it in that place", async ({ page, request }) => {
    const pet = await makePet(request, "Dragged");
    const photos = await openPet(page, pet);
    await addFiles(photos, [await imageFile("a.png", "png", "#aa0000"), await imageFile("b.png", "png", "#00aa00")]);
    const items = photos.getByTestId("pet-photo");
    const srcs = () => items.evaluateAll((elements) => elements.map((element) => element.querySelector("img")!.src));
    const [a, b] = await srcs();
    await items.nth(1).getByRole("img").dragTo(items.nth(0)); // the picture is the handle
    await expect.poll(srcs).toEqual([b, a]);
  });
});

test.describe("a pet's photos on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("fit 390 px with 44 px targets and no axe violations", async ({ page, request }) => {
    const pet = await makePet(request, "Pocket");
    const photos = await openPet(page, pet);
    await addFiles(photos, [
      await imageFile("one.png", "png", "#334455"),
      await imageFile("two.png", "png", "#556677"),
    ]);
    await expect(photos.getByTestId("pet-photo")).toHaveCount(2);
    await photos.getByTestId("pet-photo").first().scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    for (const button of await photos.getByRole("button").all()) {
      const box = (await button.boundingBox())!;
      expect(box.height, `${await button.textContent()} is at least 44 px tall`).toBeGreaterThanOrEqual(44);
    }
    await expectNoAxeViolations(page, "a pet's photos at 390 px");
  });
});
