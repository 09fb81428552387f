import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  countsQuery,
  exportQuery,
  FIRST_PAGE,
  LAST_PAGE,
  listQuery,
  pageNumber,
  readView,
  reversedSort,
  typedPetId,
  typedSearch,
  viewHref,
  viewQuery,
} from "@/lib/client/catalogue-view";
import { applyPatch } from "@/lib/client/pet-cache";
import { byField, candidate } from "@/lib/client/pet-form";
import type { Pet } from "@/lib/pets/schema";

// The admin app's browser-side pieces that hold no React: the catalogue's URL state, a change as the cached copies
// show it before the server answers, and the forms' reading of their inputs. (Rewriting and restoring the cache
// needs react-query, which this runner's react-server condition cannot load: the browser specs cover it.)

describe("the catalogue's URL", () => {
  test("q and pet are read, written after status and limit, and only q goes to listPets", () => {
    const view = readView(new URLSearchParams("status=sold&limit=50&q=%20Bis%20&cursors=abc&pet=12"));
    assert.deepEqual(view, {
      status: "sold",
      categories: [],
      limit: 50,
      sort: "-id",
      q: "Bis",
      cursors: ["abc"],
      pet: "12",
    });
    assert.equal(viewQuery(view), "status=sold&limit=50&q=Bis&cursors=abc&pet=12");
    assert.equal(viewHref({ ...view, pet: undefined }), "/admin?status=sold&limit=50&q=Bis&cursors=abc");
    assert.equal(listQuery(view), "limit=50&sort=-id&status=sold&q=Bis&cursor=abc");
  });

  test("the sort is read and written after the page size, left out when newest first, and always sent", () => {
    const view = readView(new URLSearchParams("limit=20&sort=-name&q=Bis"));
    assert.equal(view.sort, "-name");
    assert.equal(viewQuery(view), "limit=20&sort=-name&q=Bis");
    assert.equal(listQuery(view), "limit=20&sort=-name&q=Bis");
    assert.equal(countsQuery(view), "q=Bis", "the counts follow the search, not the order");
    for (const query of ["", "sort=", "sort=created", "sort=name,-id", "sort=-ID"]) {
      const fallback = readView(new URLSearchParams(query));
      assert.equal(fallback.sort, "-id", query);
      assert.equal(viewQuery(fallback), "limit=20", query);
      assert.equal(listQuery(fallback), "limit=20&sort=-id", query);
      assert.equal(countsQuery(fallback), "", query);
    }
  });

  test("from=end reads the order reversed, the last page as long as the count leaves over", () => {
    const view = readView(new URLSearchParams("limit=20&sort=name&from=end"));
    assert.equal(view.fromEnd, true);
    assert.equal(viewQuery(view), "limit=20&sort=name&from=end");
    assert.equal(listQuery(view, 45), "limit=5&sort=-name", "pages of 20, 20 and 5: the last holds 5");
    assert.equal(listQuery(view, 40), "limit=20&sort=-name", "a full last page");
    assert.equal(listQuery(view, 0), "limit=20&sort=-name");
    assert.equal(listQuery({ ...view, cursors: ["abc"] }, 45), "limit=20&sort=-name&cursor=abc");
    assert.equal(pageNumber(view, 45), 3);
    assert.equal(pageNumber({ ...view, cursors: ["abc"] }, 45), 2);
    assert.equal(pageNumber(view), undefined, "from the end, the number needs the count");
    assert.equal(pageNumber({ ...view, ...FIRST_PAGE, cursors: ["a", "b"] }), 3);
    assert.equal(viewQuery({ ...view, ...FIRST_PAGE }), "limit=20&sort=name", "a new filter starts at the start");
    assert.equal(viewQuery({ ...view, ...FIRST_PAGE, ...LAST_PAGE }), "limit=20&sort=name&from=end");
    assert.deepEqual(
      ["id", "-id", "name", "-name"].map((sort) => reversedSort(sort as "id")),
      ["-id", "id", "-name", "name"],
    );
    assert.equal(readView(new URLSearchParams("from=start")).fromEnd, undefined);
  });

  test("what listPets would refuse falls back to no search and no pet", () => {
    for (const query of [
      `q=${"x".repeat(101)}&pet=0`,
      "q=%20%20&pet=012",
      "q=a%07b&pet=9223372036854775808",
      "pet=-1",
      "pet=1.5",
    ]) {
      const view = readView(new URLSearchParams(query));
      assert.equal(view.q, "", query);
      assert.equal(view.pet, undefined, query);
      assert.equal(listQuery(view), "limit=20&sort=-id", query);
    }
    assert.equal(readView(new URLSearchParams("q=" + "é".repeat(100))).q, "é".repeat(100));
    assert.equal(readView(new URLSearchParams("pet=9223372036854775807")).pet, "9223372036854775807");
  });

  test("status=none and categoryId are read as listPets reads them, for the list, the counts and the export", () => {
    const view = readView(new URLSearchParams("status=none&categoryId=7,3,3&q=Bis"));
    assert.equal(view.status, "none");
    assert.deepEqual(view.categories, ["3", "7"]);
    assert.equal(viewQuery(view), "status=none&categoryId=3%2C7&limit=20&q=Bis");
    assert.equal(listQuery(view), "limit=20&sort=-id&status=none&categoryId=3%2C7&q=Bis");
    assert.equal(countsQuery(view), "categoryId=3%2C7&q=Bis", "the counts follow the categories, not the status");
    assert.equal(exportQuery(view), "sort=-id&status=none&categoryId=3%2C7&q=Bis");
    for (const bad of ["", "a", "1,,2", "01", String(2n ** 63n), Array.from({ length: 21 }, (_, i) => i).join(",")])
      assert.deepEqual(readView(new URLSearchParams({ categoryId: bad })).categories, [], bad);
  });

  test("a pet's id typed in the search box: 35 or #35", () => {
    assert.equal(typedPetId("35"), "35");
    assert.equal(typedPetId(" #35 "), "35");
    assert.equal(typedPetId("# 35"), "35");
    assert.equal(typedPetId("9223372036854775807"), "9223372036854775807");
    for (const text of ["", "#", "0", "#0", "035", "3a", "Rex 35", "9223372036854775808", "-1"])
      assert.equal(typedPetId(text), undefined, text);
  });

  test("typed text searches for what the API takes: control characters are spaces, 100 characters at most", () => {
    assert.equal(typedSearch(" Biscuit\t"), "Biscuit");
    assert.equal(typedSearch("Bis\tcuit"), "Bis cuit");
    assert.equal(typedSearch("a\r\nb"), "a b");
    assert.equal(typedSearch("é".repeat(150)), "é".repeat(100));
    for (const text of ["Bis\tcuit", "x".repeat(150), "\u0007bell"]) {
      const q = typedSearch(text);
      assert.equal(readView(new URLSearchParams({ q })).q, q, "the URL keeps what the box searches for");
    }
  });
});

const biscuit: Pet = { id: 12n, name: "Biscuit", categoryId: 1n, status: "available" };
const luna: Pet = { id: 13n, name: "Luna", categoryId: 1n };

describe("a change shown before the server answers", () => {
  test("a merge patch is applied as the server applies it", () => {
    assert.deepEqual(applyPatch(biscuit, {}), biscuit);
    assert.deepEqual(applyPatch(biscuit, { status: "sold" }), { ...biscuit, status: "sold" });
    assert.deepEqual(applyPatch(biscuit, { status: null }), { id: 12n, name: "Biscuit", categoryId: 1n });
    assert.equal("status" in applyPatch(biscuit, { status: null }), false);
    assert.deepEqual(applyPatch(luna, { name: "Moon", categoryId: 2n }), { ...luna, name: "Moon", categoryId: 2n });
  });
});

describe("the pet forms' inputs", () => {
  test("the text typed becomes the members the schema checks", () => {
    assert.deepEqual(candidate("Rex", " 42 "), { name: "Rex", categoryId: 42n });
    assert.deepEqual(candidate("Rex", "", "sold"), { name: "Rex", categoryId: undefined, status: "sold" });
    assert.deepEqual(candidate("Rex", "three"), { name: "Rex", categoryId: "three" });
    assert.deepEqual(candidate("Rex", "-9223372036854775809"), { name: "Rex", categoryId: -9223372036854775809n });
  });

  test("errors go beside the input they name, the rest to the form", () => {
    assert.deepEqual(
      byField(
        ["name", "categoryId"],
        [
          { path: "name", message: "name must not be empty" },
          { path: "categoryId", message: "categoryId is required" },
          { path: "status", message: "must be one of available, pending, sold" },
          { path: "", message: "the body must be a JSON object" },
        ],
      ),
      {
        name: ["name must not be empty"],
        categoryId: ["categoryId is required"],
        form: ["status: must be one of available, pending, sold", "the body must be a JSON object"],
      },
    );
  });
});
