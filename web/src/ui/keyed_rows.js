// Rows of a list kept by the id of the object each shows: dropping the rows of objects gone, and a row's error line that hides itself.

const ERROR_SHOW_MS = 8000;

/** Removes from the page and from rows (a Map id -> {row}) every row whose id is not in seen. */
export function dropMissingRows(rows, seen) {
  for (const [id, { row }] of rows) {
    if (!seen.has(id)) {
      row.remove();
      rows.delete(id);
    }
  }
}

/** Shows message in the entry's error line ({error, timer}) for a while. */
export function showRowError(entry, message) {
  entry.error.textContent = message;
  entry.error.hidden = false;
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => { entry.error.hidden = true; }, ERROR_SHOW_MS);
}
