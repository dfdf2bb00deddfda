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

const LOOPBACK_HOST = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** Whether a URL's host is this computer only (127.x.x.x, localhost, [::1]). */
export function isLoopbackUrl(href) {
  return LOOPBACK_HOST.test(new URL(href).hostname);
}

export const LOOPBACK_WARNING = 'Only this computer opens this link: the server is reached at a loopback address. '
  + 'Start it with --public-url URL (the address the room reaches, e.g. a tunnel\'s) or with --bind 0.0.0.0 --token SECRET.';

/**
 * Where room links point: {base, warning}. The server's --public-url first (welcome.room, source
 * public_url); else the page's own address when the room can reach it (not loopback: a tunnel's or
 * the host's name); else the host address the server found (source interface); else the page's
 * loopback address with LOOPBACK_WARNING. room: welcome.room ({url, source}) or null (older servers).
 */
export function roomBase(room, pageHref) {
  const fromServer = room && typeof room.url === 'string' && /^https?:\/\//.test(room.url) ? room : null;
  if (fromServer?.source === 'public_url') return { base: fromServer.url, warning: null };
  if (!isLoopbackUrl(pageHref)) return { base: pageHref, warning: null };
  if (fromServer && fromServer.source === 'interface' && !isLoopbackUrl(fromServer.url)) return { base: fromServer.url, warning: null };
  return { base: pageHref, warning: LOOPBACK_WARNING };
}

/** The link of a world for the room: base (roomBase; default the page's address) with ?world=ID, the colour mode, and no token. */
export function roomLink(href, world, { attribute = null } = {}) {
  const url = new URL(href);
  url.search = '';
  url.hash = '';
  url.searchParams.set('world', String(world));
  if (ATTRIBUTES.includes(attribute)) url.searchParams.set('attribute', attribute);
  return url.toString();
}

/**
 * The colour mode a scene opens with (state.view, the scene's "view": {"colour"}): an attribute
 * name, null for "plain" (water blue), undefined when the scene names none (the viewer's stays).
 */
export function sceneAttribute(view) {
  const colour = view && typeof view === 'object' ? view.colour : undefined;
  if (colour === 'plain') return null;
  return ATTRIBUTES.includes(colour) ? colour : undefined;
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
