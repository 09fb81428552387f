// What of a name can be seen, in one place: pets' names (lib/pets/schema.ts, so the /v1 API, the admin forms and the
// CSV import alike) and categories' names (lib/categories/schema.ts, also their comparison key) use these.
//
// Invisible: White_Space (spaces of every width, line and paragraph separators), Default_Ignorable_Code_Point
// (zero-width space and joiners, soft hyphen, word joiner, the byte order mark, bidirectional marks and overrides,
// variation selectors, tag characters, Hangul fillers, …), every other format character (general category Cf), and
// U+2800 BRAILLE PATTERN BLANK, which is drawn as an empty cell. Combining marks, private-use characters and emoji
// are visible; a zero-width joiner inside a visible name (👩‍👩‍👧) is allowed, only a name of nothing else is refused.
// Control characters are left to the name rules, which refuse them with a message of their own.

const invisibleCharacter = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]/u;
const formatCharacters = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/** How a schema says a value has nothing visible: "name must have a visible character, …". */
export const NOT_ONLY_INVISIBLE = "must have a visible character, not only invisible or format characters";

/** Whether the text has at least one character that can be seen (see above for what cannot). */
export function hasVisibleCharacter(text: string): boolean {
  for (const character of text) if (!invisibleCharacter.test(character)) return true;
  return false;
}

/**
 * The text without its format and default-ignorable characters, as Unicode's NFKC_Casefold mapping and UTS #39's
 * confusable skeletons drop them: "Dogs" followed by a zero-width space, or with a soft hyphen inside, is "Dogs".
 */
export function withoutFormatCharacters(text: string): string {
  return text.replace(formatCharacters, "");
}
