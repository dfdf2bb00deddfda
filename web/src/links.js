// Shareable links: ?world=ID&token=SECRET&attribute=speed&bits=12&fps=30&render=points parsed into viewer options.

export const ATTRIBUTES = ['speed', 'density', 'temperature', 'fluid'];

/** Parses a query string (location.search). Invalid values are dropped, never guessed. */
export function parseLink(search) {
  const params = new URLSearchParams(search);
  const link = { world: null, token: null, attribute: null, bits: 16, maxFps: 30, render: null, server: null };
  const world = integerIn(params.get('world'), 1, 0xffffffff);
  if (world !== null) link.world = world;
  const token = params.get('token');
  if (token && token.length <= 256) link.token = token;
  const attribute = params.get('attribute');
  if (ATTRIBUTES.includes(attribute)) link.attribute = attribute;
  const bits = integerIn(params.get('bits'), 10, 16);
  if (bits !== null) link.bits = bits;
  const fps = integerIn(params.get('fps'), 1, 120);
  if (fps !== null) link.maxFps = fps;
  const render = params.get('render');
  if (render === 'points' || render === 'quads') link.render = render;
  const server = params.get('server');
  if (server && /^[A-Za-z0-9.[\]:-]+$/.test(server)) link.server = server;
  return link;
}

/** The link of a world for the room: the page's address with ?world=ID, the colour mode, and no token. */
export function roomLink(href, world, { attribute = null } = {}) {
  const url = new URL(href);
  url.search = '';
  url.hash = '';
  url.searchParams.set('world', String(world));
  if (ATTRIBUTES.includes(attribute)) url.searchParams.set('attribute', attribute);
  return url.toString();
}

/** The same address with another world (options kept), for history.replaceState. */
export function withWorld(href, world) {
  const url = new URL(href);
  url.searchParams.set('world', String(world));
  return url.toString();
}

/** The same address with the colour mode (none: plain water), so that a reload or a copied link keeps it. */
export function withAttribute(href, attribute) {
  const url = new URL(href);
  if (ATTRIBUTES.includes(attribute)) url.searchParams.set('attribute', attribute);
  else url.searchParams.delete('attribute');
  return url.toString();
}

/** The address without its token: the token is read once and kept for the tab's session, never left on screen. */
export function withoutToken(href) {
  const url = new URL(href);
  url.searchParams.delete('token');
  return url.toString();
}

const TOKEN_KEY = 'fluidcast.token';

/**
 * The control token for this tab: the link's (then remembered in sessionStorage and removed from
 * the address bar by the caller), else the one remembered earlier in this tab.
 */
export function sessionToken(link, storage) {
  if (link.token) {
    try { storage?.setItem(TOKEN_KEY, link.token); } catch { /* storage refused: keep it in memory only */ }
    return link.token;
  }
  try { return storage?.getItem(TOKEN_KEY) || null; } catch { return null; }
}

/** Remembers (or with null forgets) the tab's token. */
export function rememberToken(token, storage) {
  try {
    if (token) storage?.setItem(TOKEN_KEY, token);
    else storage?.removeItem(TOKEN_KEY);
  } catch { /* storage refused */ }
}

/** ws:// or wss:// URL of the server: the page's own host unless a dev build names another. */
export function socketUrl(location, server = null) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${server || location.host}/`;
}

function integerIn(text, min, max) {
  if (text === null || !/^\d+$/.test(text)) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}
