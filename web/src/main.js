// Entry point: reads the link, starts the viewer and installs the window.fluidcast test hook.
import './style.css';
import { App } from './app.js';
import { parseLink, sessionToken, withoutToken } from './links.js';
import { installTestHook } from './test_hook.js';

const byId = (id) => document.getElementById(id);
const link = parseLink(window.location.search);
link.token = sessionToken(link, window.sessionStorage);
if (new URLSearchParams(window.location.search).has('token')) history.replaceState(null, '', withoutToken(window.location.href));
const app = new App({
  viewport: byId('viewport'),
  toolbar: byId('toolbar'),
  panel: byId('panel'),
  viewControls: byId('view-controls'),
  walls: byId('walls'),
  side: byId('side'),
  sheetToggle: byId('sheet-toggle'),
  emitters: byId('emitters'),
  colliders: byId('colliders'),
  unstable: byId('unstable'),
  busy: byId('busy'),
  overlay: byId('status'),
  legend: byId('legend'),
  toast: byId('toast'),
  watchNote: byId('watch-note'),
}, link, { devServer: import.meta.env.DEV ? link.server : null });
installTestHook(app);
app.start();
