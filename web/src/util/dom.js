// DOM helper: el('button', {testid: 'btn-play', text: 'Play', onclick}, children) builds an element.

export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === 'testid') node.dataset.testid = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'className') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of [].concat(children)) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** Replaces the options of a <select>: items [{value, label}], keeping `selected` selected. */
export function setOptions(select, items, selected) {
  const wanted = items.map((item) => `${item.value}\u0000${item.label}`).join('\u0001');
  if (select.dataset.options !== wanted) {
    select.replaceChildren(...items.map((item) => el('option', { value: String(item.value), text: item.label })));
    select.dataset.options = wanted;
  }
  if (selected !== undefined && selected !== null) select.value = String(selected);
}

/** Formats a number for people: 3 significant digits, plain integers for large values. */
export function formatNumber(x, digits = 3) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (Math.abs(x) >= 1000 || Number.isInteger(x)) return String(Math.round(x));
  return String(Number(x.toPrecision(digits)));
}
