// Where a JSON text first breaks the grammar, found by a small scanner of its own (the browser's JSON.parse messages give a position only sometimes), in the words of the server's scene parser.

/** Offset of the first character at which text stops being one JSON value (RFC 8259), or -1 when it is valid. */
export function jsonErrorOffset(text) {
  let i = 0;
  const fail = () => { throw i; };
  const space = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  const literal = (word) => { for (const ch of word) { if (text[i] !== ch) fail(); i++; } };
  const digits = () => { const start = i; while (text[i] >= '0' && text[i] <= '9') i++; if (i === start) fail(); };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++; else digits();
    if (text[i] === '.') { i++; digits(); }
    if (text[i] === 'e' || text[i] === 'E') { i++; if (text[i] === '+' || text[i] === '-') i++; digits(); }
  };
  const string = () => {
    i++; // the opening quote
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') { for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) { i += k; fail(); } i += 4; }
        else if (!'"\\/bfnrt'.includes(text[i] ?? 'x') || i >= text.length) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const list = (close, item) => {
    i++;
    space();
    if (text[i] === close) { i++; return; }
    for (;;) {
      item();
      space();
      if (text[i] === close) { i++; return; }
      if (text[i] !== ',') fail();
      i++;
      space();
    }
  };
  const member = () => {
    if (text[i] !== '"') fail();
    string();
    space();
    if (text[i] !== ':') fail();
    i++;
    space();
    value();
  };
  const value = () => {
    const ch = text[i];
    if (ch === '{') list('}', member);
    else if (ch === '[') list(']', () => { space(); value(); });
    else if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else if (ch === '-' || (ch >= '0' && ch <= '9')) number();
    else fail();
  };
  try {
    space();
    value();
    space();
    if (i < text.length) fail();
    return -1;
  } catch (offset) {
    if (typeof offset !== 'number') throw offset;
    return Math.min(offset, text.length);
  }
}

/** Line and column (1-based) of a character offset in text. */
export function lineColumn(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * The scene parser's message for broken JSON (server/core/scene.c fail_syntax): "line L, column C:
 * expected valid JSON, found "REST OF LINE"", or "... expected more JSON, found the end of the
 * text"; null when text is valid JSON.
 */
export function jsonSyntaxError(text) {
  const offset = jsonErrorOffset(text);
  if (offset < 0) return null;
  const { line, column } = lineColumn(text, offset);
  const near = text.slice(offset).split(/[\r\n]/)[0].slice(0, 31);
  return near ? `line ${line}, column ${column}: expected valid JSON, found "${near}"`
    : `line ${line}, column ${column}: expected more JSON, found the end of the text`;
}
