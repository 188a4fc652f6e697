/**
 * The prompt text search compares in: each character lowercased on its own, as PostgreSQL's lower() does
 * (simple case mapping). SQLite's lower() folds ASCII only, so the SQLite adapter stores this of every prompt
 * (`images.prompt_folded`, migration 010) and folds the query the same way, to find what PostgreSQL finds:
 * `ÉLAN` finds "élan", `ΣΟΦΙΑ` "σοφια", `ПРИВЕТ` "привет". Like PostgreSQL it is not full case folding:
 * ß stays ß (`straße` and `STRASSE` are different words), Σ always becomes σ (never the final ς), and
 * accents and Unicode normalisation are left as they are (`elan` does not find "élan").
 */
export function foldForSearch(text: string): string {
  let folded = '';
  // One code point at a time, and only the first of a longer lowercase (İ is "i" + a combining dot in
  // JavaScript's full mapping, "i" in the simple one): context-free, one character for one.
  for (const char of text) folded += String.fromCodePoint(char.toLowerCase().codePointAt(0) ?? 0);
  return folded;
}
